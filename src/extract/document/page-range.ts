// The `pages` input: "3", "1-5", "2,4,9-12", "10-" (to the end). Parsed once the page count is known.
import { ToolError } from '../../errors.js';

export const PAGE_RANGE_PATTERN = /^\s*\d+(\s*-\s*\d*)?(\s*,\s*\d+(\s*-\s*\d*)?)*\s*$/;

/** The 1-based page numbers selected, ascending and without repeats; throws an input error naming `pages`. */
export function selectPages(spec: string | undefined, pageCount: number): number[] {
  if (spec === undefined) return Array.from({ length: pageCount }, (_, i) => i + 1);
  if (!PAGE_RANGE_PATTERN.test(spec)) throw new ToolError('pages must look like "3", "1-5", "2,4,9-12" or "10-".', 'input');
  const chosen = new Set<number>();
  for (const part of spec.split(',')) {
    const [startText, endText] = part.split('-').map((s) => s.trim());
    const start = Number(startText);
    const end = endText === undefined ? start : endText === '' ? pageCount : Number(endText);
    if (start < 1 || end < start) throw new ToolError(`pages: "${part.trim()}" is not a range of pages (they count from 1, low to high).`, 'input');
    for (let n = start; n <= Math.min(end, pageCount); n++) chosen.add(n);
  }
  if (chosen.size === 0)
    throw new ToolError(`pages: the document has ${pageCount} page${pageCount === 1 ? '' : 's'}; "${spec.trim()}" selects none of them.`, 'input');
  return [...chosen].sort((a, b) => a - b);
}
