// One definition of "the same page" for site.map and site.crawl. A URL is normalised for fetching (http/https
// only; scheme and host lower-cased by the WHATWG parser; default port, fragment, tracking and session
// parameters dropped; query sorted; unreserved percent-escapes decoded) and keyed for de-duplication (the
// normalised URL without a trailing slash on its path). Two URLs with one key are fetched once.
import { TRACKING_PARAMETERS, TRACKING_PREFIXES, SESSION_PARAMETERS } from './url-vocabulary.js';

/** The URL to fetch, or null when `raw` is not an absolute http(s) URL (relative ones resolve against `base`). */
export function normaliseUrl(raw: string, base?: string): string | null {
  let url: URL;
  try {
    url = base === undefined ? new URL(raw.trim()) : new URL(raw.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password) {
    url.username = '';
    url.password = '';
  }
  url.hash = '';
  // A session id in a path parameter (Java's ";jsessionid=…") names the visitor, not the page.
  url.pathname = decodeUnreserved(url.pathname.replace(/;(?:jsessionid|phpsessid|sid)=[^/?;]*/gi, ''));
  {
    // Also for a bare "?" (an empty query is no query).
    const kept = [...url.searchParams].filter(([name]) => !isDroppedParameter(name));
    kept.sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
    url.search = kept.length ? new URLSearchParams(kept).toString() : '';
  }
  // The parser drops default ports and lower-cases scheme and host; a trailing dot on the host is the same name.
  if (url.hostname.endsWith('.')) url.hostname = url.hostname.slice(0, -1);
  return url.href;
}

/** The de-duplication key of a normalised URL: "/docs/" and "/docs" are one page. */
export function urlKey(normalised: string): string {
  const q = normalised.indexOf('?');
  const head = q < 0 ? normalised : normalised.slice(0, q);
  const tail = q < 0 ? '' : normalised.slice(q);
  // Keep the root's slash ("https://a.example/"): scheme://host is the same either way.
  const slashes = head.indexOf('/', head.indexOf('//') + 2);
  const trimmed = head.length > slashes + 1 && head.endsWith('/') ? head.replace(/\/+$/, '') : head;
  return trimmed + tail;
}

export function isDroppedParameter(name: string): boolean {
  const n = name.toLowerCase();
  return TRACKING_PARAMETERS.has(n) || SESSION_PARAMETERS.has(n) || TRACKING_PREFIXES.some((p) => n.startsWith(p));
}

const UNRESERVED = /%(2[Dd]|3[0-9]|4[1-9A-Fa-f]|5[0-9Aa]|5[Ff]|6[1-9A-Fa-f]|7[0-9Aa]|7[Ee])/g;

/** "%7Euser" → "~user", and hex digits of the escapes left upper-cased (RFC 3986 §6.2.2). */
function decodeUnreserved(path: string): string {
  return path.replace(UNRESERVED, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/%[0-9a-f]{2}/g, (m) => m.toUpperCase());
}

/** Normalised URLs seen so far, one per key: add() answers whether the URL is new. */
export class UrlSet {
  private readonly keys = new Set<string>();

  add(normalised: string): boolean {
    const key = urlKey(normalised);
    if (this.keys.has(key)) return false;
    this.keys.add(key);
    return true;
  }

  has(normalised: string): boolean {
    return this.keys.has(urlKey(normalised));
  }

  get size(): number {
    return this.keys.size;
  }
}
