// The crawler's HTTP: one GET through the network guard's client (http/https only, no private address
// unless NETWORK_ALLOWLIST opens it, the resolved address pinned per connection), a bounded body, gzip
// files (sitemap.xml.gz) unpacked within the same bound, and redirects returned to the caller instead
// of followed, so every hop is a URL the crawler checks (scope, robots, de-duplication) before asking for it.
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { BlockedTargetError } from '../net/errors.js';
import type { HttpClient } from '../net/http-client.js';

/** The crawler's user agent; robots.txt groups are matched on its product token. */
export const CRAWLER_TOKEN = 'agent-utility';
export const CRAWLER_USER_AGENT = `Mozilla/5.0 (compatible; ${CRAWLER_TOKEN}/1.0; site crawler)`;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface FetchedText {
  url: string;
  status: number;
  /** Absolute target of a redirect (status 3xx with Location), else null. */
  location: string | null;
  contentType: string;
  body: string;
  /** The response's headers (names in lower case). */
  headers: Record<string, string | string[] | undefined>;
}

/** The same response with its body as bytes (site.page reads PDFs and other documents from them). */
export interface FetchedBytes extends Omit<FetchedText, 'body'> {
  body: Buffer;
}

export interface FetchTextOptions {
  signal?: AbortSignal | undefined;
  timeoutMs: number;
  maxBytes: number;
}

export async function fetchText(http: HttpClient, url: string, o: FetchTextOptions): Promise<FetchedText> {
  const got = await fetchBytes(http, url, o);
  return { ...got, body: got.body.toString('utf8') };
}

export async function fetchBytes(http: HttpClient, url: string, o: FetchTextOptions): Promise<FetchedBytes> {
  http.guard.checkUrl(url);
  const timeout = AbortSignal.timeout(o.timeoutMs);
  const signal = o.signal ? AbortSignal.any([o.signal, timeout]) : timeout;
  const res = await request(url, {
    method: 'GET',
    headers: {
      'user-agent': CRAWLER_USER_AGENT,
      accept: 'text/html,application/xhtml+xml,application/xml,text/xml,text/plain;q=0.9,*/*;q=0.5',
      'accept-encoding': 'identity',
    },
    signal,
    dispatcher: http.agent,
  });
  const contentType = headerValue(res.headers['content-type']);
  const locationHeader = headerValue(res.headers.location);
  if (REDIRECT_STATUSES.has(res.statusCode) && locationHeader) {
    await res.body.dump();
    let location: string | null = null;
    try {
      location = new URL(locationHeader, url).href;
    } catch {
      location = null;
    }
    return { url, status: res.statusCode, location, contentType, body: Buffer.alloc(0), headers: res.headers };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += (chunk as Buffer).length;
    if (size > o.maxBytes) {
      res.body.destroy();
      throw new Error(`the response from ${url} is larger than ${o.maxBytes} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  let bytes = Buffer.concat(chunks);
  // A .gz sitemap arrives as gzip bytes (not Content-Encoding): unpack it, within the same bound.
  if (bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes, { maxOutputLength: o.maxBytes });
  return { url, status: res.statusCode, location: null, contentType, body: bytes, headers: res.headers };
}

/** GET following at most `maxHops` redirects (robots.txt and sitemaps, which are not pages of the crawl). */
export async function fetchFollowing(http: HttpClient, url: string, o: FetchTextOptions & { maxHops: number }): Promise<FetchedText> {
  let current = url;
  const seen = new Set<string>([url]);
  for (let hop = 0; ; hop++) {
    const got = await fetchText(http, current, o);
    if (got.location === null) return got;
    if (hop >= o.maxHops || seen.has(got.location)) return { ...got, status: 0, body: '' };
    seen.add(got.location);
    current = got.location;
  }
}

function headerValue(v: string | string[] | undefined): string {
  return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
}

/** The guard's refusal behind an error (undici wraps the connector's error as its cause), or null. */
export function blockedCause(err: unknown): BlockedTargetError | null {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof BlockedTargetError) return e;
  }
  return null;
}
