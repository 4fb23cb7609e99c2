// Reading order by recursive XY-cut: a region splits first at vertical whitespace rivers (gutters between
// columns, a sidebar's margin), read left to right, and otherwise at its widest horizontal gap, read top
// to bottom. Cutting at the widest gap (not at every gap) keeps a title or a full-width figure above two
// columns from slicing the columns into bands that would be read row by row.
import type { Box } from './text-runs.js';

/** A gutter must be at least this many body font sizes wide. */
const GUTTER_EM = 0.8;
/** A horizontal gap this many body sizes tall separates blocks (line spacing inside a paragraph is less). */
const BLOCK_GAP_EM = 0.45;

/** A gutter may be crossed by this many lines that overflow their column (a word too long for it). */
const MAX_OVERFLOWS = 2;
/** …in a region of at least this many rows. */
const MIN_ROWS_FOR_OVERFLOW = 8;

/** Splits an item in two at x (its parts starting left and right of x), or undefined when it cannot be. */
export type SplitAt<T> = (item: T, x: number) => [T, T] | undefined;

/** Orders boxes into leaf groups: each leaf is read top to bottom, the leaves in the order returned. */
export function readingOrder<T extends Box & { y: number }>(items: readonly T[], bodySize: number, split?: SplitAt<T>): T[][] {
  const leaves: T[][] = [];
  cut(items, bodySize, leaves, split);
  return leaves;
}

function cut<T extends Box & { y: number }>(items: readonly T[], body: number, out: T[][], split: SplitAt<T> | undefined): void {
  if (items.length <= 1) {
    if (items.length === 1) out.push([...items]);
    return;
  }
  // A single row never splits sideways: its pieces are one line (a numbered heading, a label and value).
  const rows = distinctRows(items);
  if (rows > 1) {
    let columns = splitAtGaps(items, (b) => [b.x0, b.x1], GUTTER_EM * body, 'all');
    if (columns.length === 1 && split && rows >= MIN_ROWS_FOR_OVERFLOW) columns = splitAtCrossedGutter(items, body, split) ?? columns;
    if (columns.length > 1) {
      for (const column of columns) cut(column, body, out, split);
      return;
    }
  }
  const bands = splitAtWidestRowGap(items, body);
  if (bands.length > 1) {
    for (const band of bands) cut(band, body, out, split);
    return;
  }
  out.push([...items].sort((a, b) => a.y - b.y || a.x0 - b.x0));
}

/**
 * A gutter that one or two lines cross because a word overflowed its column: the widest x-range at least a
 * gutter wide covered by no more than MAX_OVERFLOWS items, each of which splits into its two sides' parts.
 * Returns the two sides, or undefined when there is no such gutter.
 */
function splitAtCrossedGutter<T extends Box & { y: number }>(items: readonly T[], body: number, split: SplitAt<T>): T[][] | undefined {
  const left = Math.floor(Math.min(...items.map((i) => i.x0)));
  const right = Math.ceil(Math.max(...items.map((i) => i.x1)));
  const cover = new Int32Array(right - left + 2);
  for (const i of items) {
    cover[Math.floor(i.x0) - left]! += 1;
    cover[Math.ceil(i.x1) - left + 1]! -= 1;
  }
  let best: { start: number; end: number } | undefined;
  let depth = 0;
  let start = -1;
  for (let x = 0; x < cover.length; x++) {
    depth += cover[x]!;
    const open = depth > 0 && depth <= MAX_OVERFLOWS;
    if (open && start < 0) start = x;
    if ((!open || x === cover.length - 1) && start >= 0) {
      const end = open ? x : x - 1;
      if (end - start + 1 >= GUTTER_EM * body && (!best || end - start > best.end - best.start)) best = { start, end };
      start = -1;
    }
  }
  if (!best) return undefined;
  const at = left + (best.start + best.end) / 2;
  const sides: [T[], T[]] = [[], []];
  for (const item of items) {
    if (item.x1 <= at) sides[0].push(item);
    else if (item.x0 >= at) sides[1].push(item);
    else {
      const parts = split(item, at);
      if (!parts) return undefined;
      sides[0].push(parts[0]);
      sides[1].push(parts[1]);
    }
  }
  return sides[0].length > 0 && sides[1].length > 0 ? sides : undefined;
}

/**
 * Splits at the widest horizontal gap that separates blocks. A gap counts when it is at least BLOCK_GAP_EM
 * times the type size on both sides of it (never less than the body's), so the lines of a large heading,
 * spaced for their size, stay one block.
 */
function splitAtWidestRowGap<T extends Box & { y: number; size?: number }>(items: readonly T[], body: number): T[][] {
  const sorted = [...items].sort((a, b) => a.top - b.top);
  let reach = -Infinity;
  let lastSize = body;
  let best = -1;
  let bestGap = 0;
  for (let i = 0; i < sorted.length; i++) {
    const item = sorted[i]!;
    const size = item.size ?? body;
    const gap = item.top - reach;
    if (i > 0 && gap >= BLOCK_GAP_EM * Math.max(body, Math.min(lastSize, size)) && gap > bestGap) {
      best = i;
      bestGap = gap;
    }
    if (item.bottom >= reach) lastSize = size;
    reach = Math.max(reach, item.bottom);
  }
  return best < 0 ? [sorted] : [sorted.slice(0, best), sorted.slice(best)];
}

function distinctRows(items: readonly { y: number }[]): number {
  const ys = items.map((i) => i.y).sort((a, b) => a - b);
  let rows = 1;
  for (let i = 1; i < ys.length; i++) if (ys[i]! - ys[i - 1]! > 1) rows++;
  return rows;
}

/**
 * Splits items along one axis where no item covers a gap at least `minGap` wide: at every such gap
 * ('all') or only at the widest ('widest'). Returns one group when there is none.
 */
function splitAtGaps<T>(items: readonly T[], extent: (item: T) => [number, number], minGap: number, which: 'all' | 'widest'): T[][] {
  const sorted = [...items].sort((a, b) => extent(a)[0] - extent(b)[0]);
  const groups: T[][] = [];
  const gaps: number[] = [];
  let reach = -Infinity;
  for (const item of sorted) {
    const [start, end] = extent(item);
    if (groups.length === 0 || start - reach >= minGap) {
      if (groups.length > 0) gaps.push(start - reach);
      groups.push([item]);
    } else {
      groups.at(-1)!.push(item);
    }
    reach = Math.max(reach, end);
  }
  if (groups.length <= 1 || which === 'all') return groups;
  const widest = gaps.indexOf(Math.max(...gaps));
  return [groups.slice(0, widest + 1).flat(), groups.slice(widest + 1).flat()];
}
