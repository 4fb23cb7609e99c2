// Reuse of browser results (cache_ttl_s). An entry is the result's JSON kept in the artifact store under an
// id derived from the request, so it is as durable and as shared between workers as the screenshots
// themselves (local disk, PostgreSQL or S3) and swept like them, with no table of its own.
//
// The key covers the tool, every input except cache_ttl_s, and the payer: results are never shared
// between payers. A request carries cookies and headers that may be credentials, and a hit reveals that
// someone rendered that page recently; within one payer neither tells the caller anything new.
import { createHash } from 'node:crypto';
import type { ArtifactStore } from '../artifacts/artifact-store.js';

/** Entries are kept for the longest TTL anyone may ask for; each reader applies its own. */
export const CACHE_ENTRY_TTL_MS = 3600 * 1000;
const CONTENT_TYPE = 'application/vnd.agent-utility.cached-result+json';

/** JSON with object keys sorted, so equal inputs give equal keys whatever order their fields came in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The artifact id of a request's entry: file_ + 64 hex digits of SHA-256. */
export function cacheKey(tool: string, input: Record<string, unknown>, payerScope: string): string {
  // How long to reuse, and which window of the result to show, do not change the result itself.
  const { cache_ttl_s: _ttl, max_chars: _max, offset: _offset, chunks: _chunks, ...rest } = input;
  const digest = createHash('sha256')
    .update(canonical({ tool, input: rest, payer: payerScope }))
    .digest('hex');
  return `file_${digest}`;
}

/** The stored result when it is younger than `ttlS` seconds, else undefined. */
export async function readCached(store: ArtifactStore, key: string, ttlS: number, now = Date.now()): Promise<unknown> {
  const got = await store.get(key);
  if (!got || got.meta.contentType !== CONTENT_TYPE) return undefined;
  if (got.meta.expiresAt.getTime() <= now || got.meta.createdAt.getTime() + ttlS * 1000 <= now) return undefined;
  try {
    return JSON.parse(got.body.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

export async function writeCached(store: ArtifactStore, key: string, result: unknown): Promise<void> {
  await store.put(Buffer.from(JSON.stringify(result)), CONTENT_TYPE, { fileId: key, ttlMs: CACHE_ENTRY_TTL_MS });
}
