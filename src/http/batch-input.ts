// Reads a batch's inputs from a request body while it streams in: JSON {"inputs": [...]}, NDJSON (one
// input per line) or CSV (header row = input field names, dotted names for nested fields). Every limit
// is enforced as the bytes arrive — the body size, the item count, a CSV row wider than its header, the
// nesting depth, an unterminated quote — so a body of ten million tiny rows is refused after the first
// rows past the limit, not after all of them were built. CSV cells arrive as text; empty cells are left
// out so the tool's defaults apply.
import type { IncomingMessage } from 'node:http';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { JSONParser, TokenType } from '@streamparser/json';
import { CsvError, parse as parseCsvStream } from 'csv-parse';
import { assertInputDepth, MAX_INPUT_DEPTH } from '../engine/input-depth.js';
import { AppError, InvalidInput, PayloadTooLarge, UnsupportedMediaType } from '../errors.js';
import { reservedKeyError } from '../registry/input-errors.js';
import { isReservedKey } from '../registry/reserved-keys.js';

export const BATCH_MEDIA_TYPES = ['application/json', 'application/x-ndjson', 'text/csv'] as const;
export type BatchFormat = 'json' | 'ndjson' | 'csv';

export interface BatchBodyLimits {
  maxItems: number;
  maxBytes: number;
}

/** What a read consumed: tests (and logs) see that a refused body stopped early. */
export interface BatchReadProgress {
  bytes: number;
  items: number;
}

/** The body's format from its Content-Type (415 for anything else, or a compressed body). */
export function batchFormatOf(req: Pick<IncomingMessage, 'headers'>): BatchFormat {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding !== 'identity')
    throw new UnsupportedMediaType(`Content-Encoding ${encoding} is not accepted for batches; send the body uncompressed.`);
  if (type === 'application/json') return 'json';
  if (type === 'application/x-ndjson') return 'ndjson';
  if (type === 'text/csv') return 'csv';
  throw new UnsupportedMediaType(`Content-Type must be one of ${BATCH_MEDIA_TYPES.join(', ')} (got ${req.headers['content-type'] ?? 'none'}).`);
}

/**
 * The inputs of a batch body, read from `source` (the request, or any byte stream). Throws 400/413 as soon
 * as a limit is passed; the request is left to the server to drain, so the refusal still reaches a client
 * that is uploading.
 */
export async function readBatchInputs(
  source: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  format: BatchFormat,
  limits: BatchBodyLimits,
  progress: BatchReadProgress = { bytes: 0, items: 0 },
): Promise<unknown[]> {
  const inputs: unknown[] = [];
  const add = (input: unknown) => {
    if (++progress.items > limits.maxItems) {
      throw new InvalidInput(`inputs holds more than ${limits.maxItems} items; a batch takes at most ${limits.maxItems} (reading stopped there).`, 'inputs');
    }
    inputs.push(input);
  };
  const bytes = Readable.from(countBytes(source, limits.maxBytes, progress), { objectMode: false });
  try {
    if (format === 'csv') await readCsv(bytes, add);
    else if (format === 'ndjson') await readNdjson(bytes, add);
    else await readJson(bytes, add);
  } finally {
    bytes.destroy();
  }
  return inputs;
}

async function* countBytes(
  source: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  maxBytes: number,
  progress: BatchReadProgress,
): AsyncGenerator<Buffer> {
  const iterator = isRequest(source) ? source.iterator({ destroyOnReturn: false }) : source;
  for await (const chunk of iterator) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    progress.bytes += buf.length;
    if (progress.bytes > maxBytes) throw new PayloadTooLarge(`The batch body is larger than ${maxBytes} bytes.`);
    yield buf;
  }
}

/** A request stream is read without destroying it on an early stop, so its socket can still answer. */
function isRequest(source: AsyncIterable<Buffer | string> | Iterable<Buffer | string>): source is Readable {
  return source instanceof Readable;
}

async function readNdjson(bytes: Readable, add: (input: unknown) => void): Promise<void> {
  let line = 0;
  for await (const text of createInterface({ input: bytes, crlfDelay: Infinity })) {
    line++;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new InvalidInput(`Line ${line} of the NDJSON body is not valid JSON.`, `line ${line}`);
    }
    assertInputDepth(value);
    add(value);
  }
}

/** Containers above a tool input in {"inputs": [...]}. */
const JSON_ENVELOPE_DEPTH = 2;

async function readJson(bytes: Readable, add: (input: unknown) => void): Promise<void> {
  let depth = 0;
  let inputsSeen = false;
  let failure: unknown;
  const parser = new JSONParser({ paths: ['$.inputs', '$.inputs.*'], keepStack: false });
  parser.onToken = ({ token }) => {
    if (token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET) {
      if (++depth > MAX_INPUT_DEPTH + JSON_ENVELOPE_DEPTH) {
        throw new InvalidInput(`Input is nested deeper than ${MAX_INPUT_DEPTH} levels; no tool takes input that deep.`, 'inputs', 'INPUT_TOO_DEEP');
      }
    } else if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) depth--;
  };
  parser.onValue = ({ value, key, stack }) => {
    if (stack.length === 1) {
      // "$.inputs" itself, once its elements were handed out one by one.
      if (!Array.isArray(value)) throw new InvalidInput('inputs must be an array of tool inputs.', 'inputs');
      inputsSeen = true;
    } else if (typeof key === 'number') add(value);
    else throw new InvalidInput('inputs must be an array of tool inputs.', 'inputs');
  };
  parser.onError = (err) => {
    failure ??= err;
  };
  let wrote = false;
  const write = (chunk: Buffer | undefined) => {
    try {
      if (chunk) {
        wrote = true;
        parser.write(chunk);
      } else if (wrote && !parser.isEnded) parser.end();
    } catch (err) {
      failure ??= err;
    }
    if (failure !== undefined) throw failure instanceof AppError ? failure : new InvalidInput('The body is not valid JSON.', 'inputs');
  };
  for await (const chunk of bytes) write(chunk as Buffer);
  write(undefined);
  if (!inputsSeen) throw new InvalidInput('inputs must be an array of tool inputs.', 'inputs');
}

async function readCsv(bytes: Readable, add: (input: unknown) => void): Promise<void> {
  const parser = parseCsvStream({ bom: true, record_delimiter: ['\r\n', '\n', '\r'], relax_column_count: true, skip_empty_lines: true });
  // The parser errors through the iteration below; the source's own errors (413) reach it as well.
  bytes.on('error', (err) => parser.destroy(err));
  bytes.pipe(parser);
  let paths: string[][] | undefined;
  // Rows are numbered as in a BATCH_INVALID answer: the first row after the header is row 1. (csv-parse's
  // `info` option would give line numbers, at four times the cost per row.)
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (!paths) {
        paths = headerPaths(record);
        continue;
      }
      row++;
      if (record.length > paths.length) {
        throw new InvalidInput(`CSV row ${row} has ${record.length} cells but the header names ${paths.length} columns.`, `row ${row}`);
      }
      add(rowToInput(paths, record));
    }
  } catch (err) {
    if (err instanceof CsvError) throw csvProblem(err);
    throw err;
  } finally {
    bytes.unpipe(parser);
    parser.destroy();
  }
}

function csvProblem(err: CsvError): InvalidInput {
  const line = (err as CsvError & { lines?: number }).lines;
  const where = line !== undefined ? `line ${line}` : 'body';
  if (err.code === 'CSV_QUOTE_NOT_CLOSED') return new InvalidInput(`The CSV body ends inside a quoted cell opened on or before line ${line ?? '?'}.`, where);
  return new InvalidInput(`The CSV body is not valid CSV at ${where}: ${err.message.replace(/^Invalid /, 'invalid ')}`, where);
}

/**
 * The field path of each header cell ("requester.email" → ["requester", "email"]). A segment naming an
 * object's prototype machinery (__proto__, prototype, constructor) is refused: the rows are built by
 * walking these paths, so such a header would write into Object.prototype for the whole process.
 */
export function headerPaths(header: readonly string[]): string[][] {
  if (header.some((h) => h.trim() === '')) throw new InvalidInput('The CSV header row must name every column (input field names).', 'header');
  return header.map((cell) => {
    const name = cell.trim();
    const path = name.split('.').map((segment) => segment.trim());
    if (path.some(isReservedKey)) throw reservedKeyError(name);
    if (path.length > MAX_INPUT_DEPTH) throw new InvalidInput(`${name}: is nested deeper than ${MAX_INPUT_DEPTH} levels.`, name, 'INPUT_TOO_DEEP');
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
