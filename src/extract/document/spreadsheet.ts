// Spreadsheets: each sheet of an XLSX (read-excel-file, MIT) and a CSV (csv-parse, MIT) as a GFM table
// whose first row is the header, up to a row cap; the result says how many rows were left out.
import { parse } from 'csv-parse/sync';
import { ToolError } from '../../errors.js';
import type { DocumentText } from './document-text.js';
import { gfmTable } from './gfm-table.js';
import { decodeText } from './text-file.js';

/** Rows per sheet (header included) put in the Markdown. */
export const MAX_SHEET_ROWS = 2000;

type Cell = string | number | boolean | Date | null | undefined;

function cellText(value: Cell): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date)
    return Number.isNaN(value.getTime())
      ? ''
      : value
          .toISOString()
          .replace(/T00:00:00\.000Z$/, '')
          .replace(/\.000Z$/, 'Z');
  return String(value);
}

/** Drops empty trailing rows and columns; caps the rows. */
function trimmed(rows: readonly (readonly Cell[])[]): { rows: string[][]; omitted: number } {
  const text = rows.map((r) => r.map(cellText));
  while (text.length > 0 && text.at(-1)!.every((c) => c.trim() === '')) text.pop();
  const width = Math.max(0, ...text.map((r) => r.reduce((w, c, i) => (c.trim() !== '' ? i + 1 : w), 0)));
  const cut = text.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ''));
  return { rows: cut.slice(0, MAX_SHEET_ROWS), omitted: Math.max(0, cut.length - MAX_SHEET_ROWS) };
}

export async function readXlsx(bytes: Uint8Array): Promise<DocumentText> {
  const { default: readXlsxFile } = await import('read-excel-file/node');
  let sheets: { sheet: string; data: Cell[][] }[];
  try {
    sheets = (await readXlsxFile(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))) as { sheet: string; data: Cell[][] }[];
  } catch (err) {
    throw new ToolError(`The spreadsheet could not be read: ${(err as Error).message}`, 'input');
  }
  let omitted = 0;
  const parts: string[] = [];
  for (const { sheet, data } of sheets) {
    const table = trimmed(data);
    omitted += table.omitted;
    parts.push(`## ${sheet}`);
    parts.push(table.rows.length > 0 ? gfmTable(table.rows) : '*(empty sheet)*');
    if (table.omitted > 0) parts.push(`*(${table.omitted} more rows not shown)*`);
  }
  return { type: 'xlsx', title: '', markdown: parts.join('\n\n'), ...(omitted > 0 ? { rows_omitted: omitted } : {}) };
}

/** The delimiter that splits the first lines most consistently. */
function delimiterOf(text: string): string {
  const lines = text.split('\n', 5).filter((l) => l.trim() !== '');
  let best = ',';
  let bestScore = 0;
  for (const d of [',', ';', '\t', '|']) {
    // Quoted fields may hold the delimiter: count outside quotes only.
    const counts = lines.map((l) => l.replace(/"[^"]*"/g, '').split(d).length - 1);
    const score = counts.every((c) => c === counts[0]) ? counts[0]! : 0;
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

export function readCsv(bytes: Uint8Array): DocumentText {
  const text = decodeText(bytes);
  let records: string[][];
  try {
    records = parse(text, { delimiter: delimiterOf(text), relax_column_count: true, relax_quotes: true, skip_empty_lines: true, bom: true }) as string[][];
  } catch (err) {
    throw new ToolError(`The CSV could not be read: ${(err as Error).message}`, 'input');
  }
  const table = trimmed(records);
  const markdown = [gfmTable(table.rows), ...(table.omitted > 0 ? [`*(${table.omitted} more rows not shown)*`] : [])].join('\n\n');
  return { type: 'csv', title: '', markdown, ...(table.omitted > 0 ? { rows_omitted: table.omitted } : {}) };
}
