// Reads a batch's inputs from a request body: JSON {"inputs": [...]}, NDJSON (one input per line) or CSV
// (header row = input field names, dotted names for nested fields). CSV cells arrive as text; empty cells
// are left out so the tool's defaults apply.
import type { Request } from 'express';
import { InvalidInput, UnsupportedMediaType } from '../errors.js';
import { reservedKeyError } from '../registry/input-errors.js';
import { isReservedKey } from '../registry/reserved-keys.js';

export const BATCH_MEDIA_TYPES = ['application/json', 'application/x-ndjson', 'text/csv'] as const;

export function readBatchInputs(req: Request): unknown[] {
  if (req.is('application/json')) {
    const body = req.body as { inputs?: unknown } | undefined;
    if (!body || typeof body !== 'object' || !Array.isArray(body.inputs)) throw new InvalidInput('inputs must be an array of tool inputs.', 'inputs');
    return body.inputs;
  }
  const text = typeof req.body === 'string' ? req.body : '';
  if (req.is('application/x-ndjson')) return parseNdjson(text);
  if (req.is('text/csv')) return parseCsvInputs(text);
  throw new UnsupportedMediaType(`Content-Type must be one of ${BATCH_MEDIA_TYPES.join(', ')} (got ${req.get('content-type') ?? 'none'}).`);
}

export function parseNdjson(text: string): unknown[] {
  const out: unknown[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      out.push(JSON.parse(line));
    } catch {
      throw new InvalidInput(`Line ${i + 1} of the NDJSON body is not valid JSON.`, `line ${i + 1}`);
    }
  });
  return out;
}

/** RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => !(r.length === 1 && r[0] === ''));
}

/**
 * The field path of each header cell ("requester.email" → ["requester", "email"]). A segment naming an
 * object's prototype machinery (__proto__, prototype, constructor) is refused: the rows are built by
 * walking these paths, so such a header would write into Object.prototype for the whole process.
 */
export function headerPaths(header: readonly string[]): string[][] {
  return header.map((cell) => {
    const name = cell.trim();
    const path = name.split('.').map((segment) => segment.trim());
    if (path.some(isReservedKey)) throw reservedKeyError(name);
    return path;
  });
}

/** One CSV row as a tool input: null-prototype objects all the way down, empty cells left out. */
export function rowToInput(paths: readonly string[][], cells: readonly string[]): Record<string, unknown> {
  const input = Object.create(null) as Record<string, unknown>;
  cells.forEach((cell, c) => {
    const path = paths[c];
    if (!path || cell === '') return;
    let target = input;
    for (const key of path.slice(0, -1)) {
      const next = Object.hasOwn(target, key) ? target[key] : undefined;
      target = (next !== null && typeof next === 'object' ? next : (target[key] = Object.create(null))) as Record<string, unknown>;
    }
    target[path[path.length - 1]!] = cell;
  });
  return input;
}

export function parseCsvInputs(text: string): unknown[] {
  const [header, ...rows] = parseCsv(text);
  if (!header || header.some((h) => h.trim() === '')) throw new InvalidInput('The CSV header row must name every column (input field names).', 'header');
  const paths = headerPaths(header);
  return rows.map((cells) => rowToInput(paths, cells));
}
