// A leaf of the reading order → lines → paragraphs. A paragraph ends where a list marker starts a line,
// the type size or weight changes, a line is indented past the block's left edge (a first-line indent),
// or the previous line stopped short after a full stop.
import type { Table } from './tables.js';
import type { Segment } from './text-runs.js';

export interface Line {
  text: string;
  x0: number;
  x1: number;
  y: number;
  size: number;
  bold: boolean;
}

export type ListKind = 'bullet' | 'ordered';

export interface Paragraph {
  kind: 'text';
  lines: Line[];
  size: number;
  bold: boolean;
  list?: { kind: ListKind; marker: string };
}

export interface TableBlock {
  kind: 'table';
  rows: string[][];
}

export type Block = Paragraph | TableBlock;

const BULLET = /^([•◦▪▫‣⁃∙●○■□➢►–—*-])\s+/;
const ENUMERATOR = /^(\(?(\d{1,3}|[a-z]|[ivx]{1,4})[.)])\s+/;

export function listMarker(text: string): { kind: ListKind; marker: string } | undefined {
  const bullet = BULLET.exec(text);
  if (bullet) return { kind: 'bullet', marker: bullet[1]! };
  const enumerator = ENUMERATOR.exec(text);
  if (enumerator) return { kind: 'ordered', marker: enumerator[1]! };
  return undefined;
}

/** Joins a leaf's segments on one baseline into lines, top to bottom. */
function toLines(segments: readonly Segment[]): Line[] {
  const lines: Line[] = [];
  let row: Segment[] = [];
  const flush = () => {
    if (row.length === 0) return;
    row.sort((a, b) => a.x0 - b.x0);
    const size = Math.max(...row.map((s) => s.size));
    const chars = row.reduce((n, s) => n + s.text.length, 0);
    lines.push({
      text: row.map((s) => s.text).join(' '),
      x0: row[0]!.x0,
      x1: Math.max(...row.map((s) => s.x1)),
      y: row[0]!.y,
      size,
      bold: row.reduce((n, s) => n + (s.bold ? s.text.length : 0), 0) > chars / 2,
    });
    row = [];
  };
  for (const s of [...segments].sort((a, b) => a.y - b.y || a.x0 - b.x0)) {
    if (row.length > 0 && Math.abs(row[0]!.y - s.y) > 0.5 * s.size) flush();
    row.push(s);
  }
  flush();
  return lines;
}

function sameStyle(a: Line, b: Line): boolean {
  return Math.abs(a.size - b.size) <= 0.1 * Math.max(a.size, b.size) && a.bold === b.bold;
}

/** The blocks of one leaf (its items are segments, or tables standing in for theirs). */
export function leafBlocks(items: readonly (Segment | Table)[], bodySize = 0): Block[] {
  const blocks: Block[] = [];
  let pending: Segment[] = [];
  const flushText = () => {
    blocks.push(...paragraphsOf(toLines(pending), bodySize));
    pending = [];
  };
  for (const item of items) {
    if ('rows' in item) {
      flushText();
      blocks.push({ kind: 'table', rows: item.rows });
    } else {
      pending.push(item);
    }
  }
  flushText();
  return blocks;
}

function paragraphsOf(lines: readonly Line[], bodySize: number): Paragraph[] {
  if (lines.length === 0) return [];
  const left = Math.min(...lines.map((l) => l.x0));
  const right = Math.max(...lines.map((l) => l.x1));
  const paragraphs: Paragraph[] = [];
  let current: Paragraph | undefined;
  for (const line of lines) {
    // Heading type never starts a list item: "Planning - Building -" wraps onto a line that begins with "-".
    const marker = bodySize > 0 && line.size > 1.12 * bodySize ? undefined : listMarker(line.text);
    const previous = current?.lines.at(-1);
    let startsNew = current === undefined || marker !== undefined || !sameStyle(previous!, line);
    if (!startsNew && current && previous) {
      const indented = line.x0 > left + 0.8 * line.size;
      const shortLine = previous.x1 < right - 2 * line.size;
      if (current.list) {
        // An item's wrapped lines hang under its text, or run on flush left under a line that was full;
        // a line back at the marker's edge after a short line is something else.
        startsNew = line.x0 < current.lines[0]!.x0 + 0.5 * line.size && shortLine;
      } else {
        const previousIndented = previous.x0 > left + 0.8 * line.size;
        startsNew = (indented && (!previousIndented || shortLine)) || (shortLine && /[.!?:;"”)]$/.test(previous.text));
      }
    }
    if (startsNew) {
      current = { kind: 'text', lines: [line], size: line.size, bold: line.bold, ...(marker ? { list: marker } : {}) };
      paragraphs.push(current);
    } else {
      current!.lines.push(line);
    }
  }
  return paragraphs;
}

/** A paragraph's text with its lines joined: words split by a hyphen at a line end are mended. */
export function paragraphText(p: Paragraph): string {
  let text = '';
  for (const line of p.lines) text = joinLines(text, line.text);
  return text;
}

export function joinLines(before: string, after: string): string {
  if (before === '') return after;
  if (/\p{Ll}-$/u.test(before) && /^\p{Ll}/u.test(after)) return before.slice(0, -1) + after;
  return `${before} ${after}`;
}
