// Simple tables: three or more consecutive rows of short segments whose horizontal extents line up in
// the same columns. Cells are short (a few words); lines of running text in side-by-side columns are not,
// which is what keeps a two- or three-column page from reading as a table.
import type { Box, Segment } from './text-runs.js';

export interface Table {
  box: Box;
  rows: string[][];
  segments: Set<Segment>;
}

const MIN_ROWS = 3;
/** A row whose cells average more words than this is prose, not a table row. */
const MAX_MEAN_WORDS = 3.5;
/** Rows further apart than this many font sizes are not one table. */
const MAX_ROW_GAP_EM = 2.6;

export function findTables(segments: readonly Segment[]): Table[] {
  const rows = groupRows(segments);
  const tables: Table[] = [];
  let i = 0;
  while (i < rows.length) {
    const start = rows[i]!;
    if (!isCellRow(start)) {
      i++;
      continue;
    }
    const columns = start.map((s) => ({ x0: s.x0, x1: s.x1 }));
    const taken = [start];
    let j = i + 1;
    for (; j < rows.length; j++) {
      const row = rows[j]!;
      const previous = taken.at(-1)!;
      if (!isCellRow(row) || row[0]!.y - previous[0]!.y > MAX_ROW_GAP_EM * row[0]!.size) break;
      const placed = row.map((s) => columns.findIndex((c) => s.x0 <= c.x1 && s.x1 >= c.x0));
      if (placed.some((c) => c < 0) || new Set(placed).size !== placed.length) break;
      row.forEach((s, k) => {
        const c = columns[placed[k]!]!;
        c.x0 = Math.min(c.x0, s.x0);
        c.x1 = Math.max(c.x1, s.x1);
      });
      taken.push(row);
    }
    if (
      taken.length >= MIN_ROWS &&
      columns.length >= 2 &&
      !isJustifiedText(taken, columns) &&
      !continuesColumns(rows[i - 1], columns) &&
      !continuesColumns(rows[j], columns)
    ) {
      const cells = taken.map((row) => {
        const out = columns.map(() => '');
        for (const s of row) out[columns.findIndex((c) => s.x0 <= c.x1 && s.x1 >= c.x0)] = s.text;
        return out;
      });
      const all = taken.flat();
      tables.push({
        box: {
          x0: Math.min(...all.map((s) => s.x0)),
          x1: Math.max(...all.map((s) => s.x1)),
          top: Math.min(...all.map((s) => s.top)),
          bottom: Math.max(...all.map((s) => s.bottom)),
        },
        rows: cells,
        segments: new Set(all),
      });
      i = j;
    } else {
      i++;
    }
  }
  return tables;
}

/**
 * Side-by-side text columns go on above and below a run of short lines (a list of names in each column):
 * the row just outside still has a segment in each of two or more of the same columns. A table's
 * neighbours (a caption, a paragraph) span them instead.
 */
function continuesColumns(row: readonly Segment[] | undefined, columns: readonly { x0: number; x1: number }[]): boolean {
  if (!row || row.length < 2) return false;
  const hit = new Set(row.map((s) => columns.findIndex((c) => s.x0 >= c.x0 - 1 && s.x1 <= c.x1 + 1)).filter((c) => c >= 0));
  return hit.size >= 2;
}

/**
 * Lines of justified text in narrow side-by-side columns also have few words per segment, but nearly every
 * one fills its column from edge to edge (or ends in a hyphen); a table's cells vary in width.
 */
function isJustifiedText(rows: readonly Segment[][], columns: readonly { x0: number; x1: number }[]): boolean {
  let full = 0;
  let cells = 0;
  for (const row of rows) {
    for (const s of row) {
      const column = columns.find((c) => s.x0 <= c.x1 && s.x1 >= c.x0)!;
      cells++;
      if (s.x1 - s.x0 >= 0.9 * (column.x1 - column.x0) || /\p{L}-$/u.test(s.text)) full++;
    }
  }
  return full > 0.6 * cells;
}

function isCellRow(row: readonly Segment[]): boolean {
  if (row.length < 2) return false;
  const words = row.reduce((n, s) => n + s.text.split(' ').length, 0);
  return words / row.length <= MAX_MEAN_WORDS;
}

/** Segments on one baseline, left to right; rows top to bottom. */
function groupRows(segments: readonly Segment[]): Segment[][] {
  const sorted = [...segments].sort((a, b) => a.y - b.y || a.x0 - b.x0);
  const rows: Segment[][] = [];
  for (const s of sorted) {
    const row = rows.at(-1);
    if (row && Math.abs(row[0]!.y - s.y) <= 0.5 * s.size) row.push(s);
    else rows.push([s]);
  }
  for (const row of rows) row.sort((a, b) => a.x0 - b.x0);
  return rows;
}
