// Runs → segments: runs that share a baseline are one row; a row splits wherever the gap between two runs
// is wide enough to be a column gutter or a table's cell gap, so two columns' lines at the same height
// never become one line. Spaces between runs are inferred from the gaps (PDFs often draw words apart).
import { boxOf, type Segment, type TextRun } from './text-runs.js';

/**
 * A gap wider than this many font sizes (of the smaller face) separates segments. Word gaps inside one text
 * item never reach here; between items they are ~0.25–0.5; LaTeX's gutter is 10 pt whatever the font size.
 */
const SEGMENT_GAP_EM = 0.6;
/** A gap wider than this many font sizes is a space between words. */
const SPACE_GAP_EM = 0.12;
/** Footnote markers and the like: small, raised and short; dropped so "word¹" reads "word". */
const MARKER = /^[\d*†‡§¶]{1,3}$/;

export function toSegments(runs: readonly TextRun[]): Segment[] {
  const sorted = runs.filter((r) => r.text.trim() !== '' && r.size > 0).sort((a, b) => a.y - b.y || a.x - b.x);
  const rows: TextRun[][] = [];
  for (const run of sorted) {
    const row = rows.at(-1);
    // Baselines this close are one row (superscripts and subscripts included); measured on the smaller
    // size, so a heading beside a column of body text stays a row of its own.
    if (row && Math.abs(row[0]!.y - run.y) <= 0.6 * Math.min(row[0]!.size, run.size)) row.push(run);
    else rows.push([run]);
  }
  const segments: Segment[] = [];
  for (const row of rows) {
    row.sort((a, b) => a.x - b.x);
    const mainSize = Math.max(...row.map((r) => r.size));
    const mainY = row.find((r) => r.size === mainSize)!.y;
    let current: TextRun[] = [];
    let end = -Infinity;
    for (const run of row) {
      const touches = current.length > 0 && run.x - end < 0.3 * mainSize;
      if (touches && run.size < 0.8 * mainSize && run.y < mainY - 0.15 * mainSize && MARKER.test(run.text.trim())) continue;
      if (current.length > 0 && run.x - end > SEGMENT_GAP_EM * Math.min(run.size, current.at(-1)!.size)) {
        segments.push(segmentOf(current));
        current = [];
      }
      current.push(run);
      end = Math.max(end, run.x + run.width);
    }
    if (current.length > 0) segments.push(segmentOf(current));
  }
  return segments;
}

export function segmentOf(runs: TextRun[]): Segment {
  let text = '';
  let end = -Infinity;
  for (const run of runs) {
    const gap = run.x - end;
    if (text !== '' && gap > SPACE_GAP_EM * run.size && !/\s$/.test(text) && !/^\s/.test(run.text)) text += ' ';
    text += run.text;
    end = Math.max(end, run.x + run.width);
  }
  const chars = runs.reduce((n, r) => n + r.text.length, 0);
  const boldChars = runs.reduce((n, r) => n + (r.bold ? r.text.length : 0), 0);
  const size = Math.max(...runs.map((r) => r.size));
  return {
    ...boxOf(runs),
    runs,
    text: text.replace(/\s+/g, ' ').trim(),
    y: runs.find((r) => r.size === size)!.y,
    size,
    bold: boldChars > chars / 2,
  };
}

/** A segment's runs starting left of x and right of it, as two segments; undefined when one side is empty. */
export function splitSegment(segment: Segment, x: number): [Segment, Segment] | undefined {
  const left = segment.runs.filter((r) => r.x < x);
  const right = segment.runs.filter((r) => r.x >= x);
  return left.length > 0 && right.length > 0 ? [segmentOf(left), segmentOf(right)] : undefined;
}
