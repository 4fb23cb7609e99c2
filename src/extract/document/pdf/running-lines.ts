// Running headers, footers and page numbers: text in a page's top or bottom margin band that recurs on at
// least half the pages once digits are masked ("Chapter 2 · 17" and "Chapter 2 · 18" are one line), or that
// is a bare page number. Only the outermost rows of each band are candidates, so body text is never taken.
import type { Segment } from './text-runs.js';

/** The margin bands: this fraction of the page height at the top and at the bottom. */
const BAND = 0.12;
/** Rows from each edge that may be running lines. */
const EDGE_ROWS = 2;
const PAGE_NUMBER = /^((page|p\.|seite|página)\s*)?(#|(?=[ivxlc])(x[cl]|l?x{0,3})(i[xv]|v?i{0,3}))(\s*(of|\/|de|von)\s*#)?$/;

export interface PageSegments {
  height: number;
  segments: Segment[];
}

function key(text: string): string {
  return text
    .toLowerCase()
    .replace(/\d+/g, '#')
    .replace(/^[\s\-–—|·•]+|[\s\-–—|·•]+$/g, '')
    .replace(/\s+/g, ' ');
}

/** Candidate running-line segments of a page: those in the outermost rows of its top and bottom bands. */
function edgeSegments(page: PageSegments): Segment[] {
  const inTop = page.segments.filter((s) => s.bottom <= page.height * BAND);
  const inBottom = page.segments.filter((s) => s.top >= page.height * (1 - BAND));
  const outermost = (list: Segment[], fromTop: boolean) => {
    const ys = [...new Set(list.map((s) => Math.round(s.y)))].sort((a, b) => (fromTop ? a - b : b - a)).slice(0, EDGE_ROWS);
    return list.filter((s) => ys.includes(Math.round(s.y)));
  };
  return [...outermost(inTop, true), ...outermost(inBottom, false)];
}

/** The segments to drop from each page (same order as `pages`). */
export function runningLines(pages: readonly PageSegments[]): Set<Segment>[] {
  const candidates = pages.map(edgeSegments);
  const pagesWith = new Map<string, number>();
  for (const list of candidates) {
    for (const k of new Set(list.map((s) => key(s.text)))) pagesWith.set(k, (pagesWith.get(k) ?? 0) + 1);
  }
  const needed = Math.max(2, Math.ceil(pages.length / 2));
  return candidates.map((list) => new Set(list.filter((s) => PAGE_NUMBER.test(key(s.text)) || (pagesWith.get(key(s.text)) ?? 0) >= needed)));
}
