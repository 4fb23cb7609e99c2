// Bounded results: a tool whose result can be megabytes of text (a page's HTML or Markdown, its links, the
// text under selectors) declares where that text is, and every front door hands out one window of it.
// The task keeps the whole result; a window is cut when the result is read, so the next part is another
// read of the same task (no second render, no second charge) for as long as the task is kept.
//
// Offsets count characters (UTF-16 code units, as JavaScript and JSON count them) in the result's text:
// - text: one string field, cut anywhere (preferably at a line break, or at a heading with chunks);
// - items: an array of records, never split; each counts the characters of its JSON;
// - values: every field but the named ones holds a string, an array of strings or null (browser.scrape);
//   the strings, in field order, make one text, cut anywhere; fields wholly outside the window are left out.
import { z } from 'zod';
import { markdownChunks, type MarkdownChunk } from './markdown-chunks.js';

/** Default window for doors a model reads (MCP, A2A): about 5,000-7,000 tokens, far below client caps. */
export const AGENT_MAX_CHARS = 20_000;
/** Default window for REST, read by programs. */
export const REST_MAX_CHARS = 1_000_000;
const MAX_CHARS_LIMIT = 20_000_000;

export type BoundedSpec =
  { kind: 'text'; field: string; chunks?: boolean } | { kind: 'items'; field: string; countField?: string } | { kind: 'values'; keep: readonly string[] };

export interface ResultRange {
  offset: number;
  maxChars: number;
  chunks: boolean;
}

/** Said in each bounded tool's description. */
export const BOUNDED_NOTE = 'Long text comes in parts; reading on via the link is free.';

/** Spread into a bounded tool's input object. */
export const boundedInputShape = {
  max_chars: z.number().int().min(100).max(MAX_CHARS_LIMIT).optional().describe(`Default ${AGENT_MAX_CHARS}; REST ${REST_MAX_CHARS}.`),
  offset: z.number().int().min(0).optional().describe('A next_offset.'),
};

export const chunksInput = z.boolean().optional().describe('List the sections of the part.');

/** Spread into a bounded tool's output object. */
export const boundedOutputShape = {
  total_chars: z.number().int().optional().describe('Characters of text in the whole result.'),
  truncated: z.boolean().optional().describe('true when this is only part of the result.'),
  next_offset: z.number().int().nullable().optional().describe('offset of the next part (null at the end).'),
  approx_tokens: z.number().int().optional().describe('Rough token count of this part (characters / 4).'),
};

export const chunksOutput = z
  .array(
    z.object({
      heading_path: z.array(z.string()),
      start: z.number().int(),
      end: z.number().int(),
      approx_tokens: z.number().int(),
    }),
  )
  .optional()
  .describe('Sections of the Markdown in this part: heading path and character range [start, end) in the whole Markdown.');

/** The result fields a window adds; a tool whose fields are the caller's names reserves them. */
export const WINDOW_FIELDS: readonly string[] = [...Object.keys(boundedOutputShape), 'chunks'];

const approxTokens = (chars: number) => Math.ceil(chars / 4);
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** One window of `result` as `spec` describes it, with total_chars, truncated, next_offset and approx_tokens. */
export function applyWindow(spec: BoundedSpec, result: unknown, range: ResultRange): unknown {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return result;
  const r = result as Record<string, unknown>;
  if (spec.kind === 'text') return typeof r[spec.field] === 'string' ? windowText(spec, r, r[spec.field] as string, range) : result;
  if (spec.kind === 'items') return Array.isArray(r[spec.field]) ? windowItems(spec, r, r[spec.field] as unknown[], range) : result;
  return windowValues(spec, r, range);
}

function summary(start: number, end: number, total: number, returned: number) {
  return { total_chars: total, truncated: start > 0 || end < total, next_offset: end < total ? end : null, approx_tokens: approxTokens(returned) };
}

/** A cut at `end` that does not split a surrogate pair of `text`. */
function safeEnd(text: string, start: number, end: number): number {
  return end > start + 1 && end < text.length && isHighSurrogate(text.charCodeAt(end - 1)) ? end - 1 : end;
}

function windowText(spec: Extract<BoundedSpec, { kind: 'text' }>, r: Record<string, unknown>, text: string, range: ResultRange): Record<string, unknown> {
  const total = text.length;
  const start = Math.min(range.offset, total);
  let end = Math.min(total, start + range.maxChars);
  const chunks = spec.chunks && range.chunks ? markdownChunks(text) : undefined;
  if (end < total) {
    // End the part where the text breaks naturally: at a section (with chunks) or a line, if one is near.
    const floor = start + Math.floor(range.maxChars * (chunks ? 0.5 : 0.8));
    const section = chunks?.findLast((c) => c.start > start && c.start <= end)?.start;
    const line = text.lastIndexOf('\n', end - 1) + 1;
    if (section !== undefined && section >= floor) end = section;
    else if (line > floor) end = line;
    end = safeEnd(text, start, end);
  }
  const out: Record<string, unknown> = { ...r, [spec.field]: text.slice(start, end), ...summary(start, end, total, end - start) };
  if (chunks)
    out.chunks = chunks.filter((c) => c.end > start && c.start < end).map((c: MarkdownChunk) => ({ ...c, approx_tokens: approxTokens(c.end - c.start) }));
  return out;
}

function windowItems(spec: Extract<BoundedSpec, { kind: 'items' }>, r: Record<string, unknown>, items: unknown[], range: ResultRange): Record<string, unknown> {
  // Each item counts its JSON and the comma after it.
  const ends: number[] = [];
  let total = 0;
  for (const item of items) ends.push((total += JSON.stringify(item).length + 1));
  let first = ends.findIndex((e) => e > range.offset);
  if (first < 0) first = items.length;
  const start = first === 0 ? 0 : ends[first - 1]!;
  let last = first;
  // At least one item, so a part always moves forward.
  while (last < items.length && (last === first || ends[last]! - start <= range.maxChars)) last++;
  const end = last === 0 ? 0 : ends[last - 1]!;
  const part = items.slice(first, last);
  return { ...r, [spec.field]: part, ...(spec.countField ? { [spec.countField]: part.length } : {}), ...summary(start, end, total, end - start) };
}

function windowValues(spec: Extract<BoundedSpec, { kind: 'values' }>, r: Record<string, unknown>, range: ResultRange): Record<string, unknown> {
  const keep = new Set([...spec.keep, ...WINDOW_FIELDS]);
  const fields = Object.keys(r).filter((k) => !keep.has(k));
  // Every string in field order, with where it starts in the whole.
  const pieces: { key: string; index: number | undefined; at: number; text: string }[] = [];
  let total = 0;
  for (const key of fields) {
    const v = r[key];
    const texts = Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : [];
    texts.forEach((text, i) => {
      pieces.push({ key, index: Array.isArray(v) ? i : undefined, at: total, text });
      total += text.length;
    });
  }
  const start = Math.min(range.offset, total);
  let end = Math.min(total, start + range.maxChars);
  const cut = pieces.find((p) => p.at < end && end < p.at + p.text.length);
  if (cut) end = cut.at + safeEnd(cut.text, Math.max(0, start - cut.at), end - cut.at);
  const inWindow = (at: number, len: number) => (len === 0 ? at >= start && (at < end || end === total) : at < end && at + len > start);

  const out: Record<string, unknown> = Object.fromEntries(spec.keep.filter((k) => k in r).map((k) => [k, r[k]]));
  for (const key of fields) {
    const v = r[key];
    const own = pieces.filter((p) => p.key === key);
    const span = own.length > 0 ? own[own.length - 1]!.at + own[own.length - 1]!.text.length - own[0]!.at : 0;
    const at = own[0]?.at ?? pieces.find((p) => fields.indexOf(p.key) > fields.indexOf(key))?.at ?? total;
    if (!inWindow(at, span)) continue;
    const slice = (p: (typeof pieces)[number]) => p.text.slice(Math.max(0, start - p.at), Math.max(0, end - p.at));
    if (Array.isArray(v)) out[key] = own.filter((p) => inWindow(p.at, p.text.length)).map(slice);
    else out[key] = typeof v === 'string' ? slice(own[0]!) : v;
  }
  return { ...out, ...summary(start, end, total, end - start) };
}

/** A read's window as query parameters (REST ?offset=&max_chars=&chunks=, an MCP resource URI's query). */
export const readRangeQuery = z.strictObject({
  offset: z.coerce.number().int().min(0).max(MAX_CHARS_LIMIT).optional(),
  max_chars: z.coerce.number().int().min(100).max(MAX_CHARS_LIMIT).optional(),
  chunks: z.enum(['true', 'false']).optional(),
});

/** The parsed query as a read range (chunks as a boolean). */
export function toReadRange(q: z.output<typeof readRangeQuery>): { offset?: number; max_chars?: number; chunks?: boolean } {
  return {
    ...(q.offset !== undefined ? { offset: q.offset } : {}),
    ...(q.max_chars !== undefined ? { max_chars: q.max_chars } : {}),
    ...(q.chunks !== undefined ? { chunks: q.chunks === 'true' } : {}),
  };
}
