// site.map: the URLs of a site, fast, without rendering every page. Sources in order: the sitemaps
// (robots.txt's Sitemap: lines, else /sitemap.xml; indexes followed, gzip unpacked), literal paths that
// robots.txt allows, and the links of the start page (fetched, or rendered when asked). Every URL is
// normalised and de-duplicated (the first source wins), kept only when in scope, allowed by robots.txt
// and matching `search`; at most `limit`.
import type { HttpClient } from '../net/http-client.js';
import type { ToolContext } from '../registry/define-tool.js';
import { fetchFollowing } from './fetch-text.js';
import { parseHtml } from './html-page.js';
import { normaliseUrl, UrlSet } from './normalise-url.js';
import { renderPage } from './rendered-page.js';
import { fetchRobots, type RobotsRules } from './robots.js';
import { readSitemaps } from './sitemaps.js';
import { UrlScope, type ScopeOptions } from './url-scope.js';

import { MAX_MAP_URLS } from './input-schemas.js';
export { MAX_MAP_URLS };
const PAGE_MAX_BYTES = 5 * 1024 * 1024;

export type MapSource = 'sitemap' | 'links' | 'robots';

export interface MapInput extends ScopeOptions {
  url: string;
  search?: string | undefined;
  limit: number;
  sitemap: 'include' | 'skip' | 'only';
  render: boolean;
  timeout_ms: number;
}

export interface MappedUrl {
  url: string;
  source: MapSource;
  lastmod: string | null;
  title: string | null;
}

export interface MapResult {
  url: string;
  count: number;
  urls: MappedUrl[];
  /** URLs found but left out because robots.txt disallows them. */
  disallowed: number;
  sitemaps_read: boolean;
}

interface Candidate {
  url: string;
  source: MapSource;
  lastmod: string | null;
  title: string | null;
}

export async function mapSite(ctx: ToolContext, http: HttpClient, input: MapInput): Promise<MapResult> {
  const start = normaliseUrl(input.url);
  if (!start) throw new Error('url must be an absolute http or https URL');
  const scope = new UrlScope(start, input);
  const origin = new URL(start).origin;
  const robots = await fetchRobots(http, origin, ctx.signal, input.timeout_ms);
  const candidates: Candidate[] = [];

  if (input.sitemap !== 'skip') {
    const seeds = robots.sitemaps.length > 0 ? robots.sitemaps : [`${origin}/sitemap.xml`];
    // Read more than the limit: some entries will be out of scope, duplicates or disallowed.
    const entries = await readSitemaps(http, seeds, { signal: ctx.signal, timeoutMs: input.timeout_ms, maxPages: input.limit * 4 + 100 });
    for (const e of entries) candidates.push({ url: e.url, source: 'sitemap', lastmod: e.lastmod, title: null });
  }
  if (input.sitemap !== 'only') {
    for (const path of literalAllowPaths(robots)) candidates.push({ url: `${origin}${path}`, source: 'robots', lastmod: null, title: null });
    candidates.push({ url: start, source: 'links', lastmod: null, title: null });
    for (const link of await startPageLinks(ctx, http, start, robots, input)) candidates.push({ ...link, source: 'links', lastmod: null });
  }

  const seen = new UrlSet();
  const urls: MappedUrl[] = [];
  let disallowed = 0;
  const words = (input.search ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  for (const c of candidates) {
    if (urls.length >= input.limit) break;
    const url = normaliseUrl(c.url);
    if (!url || !scope.allows(url) || !seen.add(url)) continue;
    // Another host's robots.txt is not read for a map: only the start host's rules are applied.
    if (new URL(url).origin === origin && !robots.allows(url)) {
      disallowed++;
      continue;
    }
    if (words.length > 0) {
      const haystack = `${decodeSafe(url)} ${c.title ?? ''}`.toLowerCase();
      if (!words.every((w) => haystack.includes(w))) continue;
    }
    urls.push({ url, source: c.source, lastmod: c.lastmod, title: c.title });
  }
  return { url: start, count: urls.length, urls, disallowed, sitemaps_read: input.sitemap !== 'skip' };
}

async function startPageLinks(
  ctx: ToolContext,
  http: HttpClient,
  start: string,
  robots: RobotsRules,
  input: MapInput,
): Promise<{ url: string; title: string | null }[]> {
  if (!robots.allows(start)) return [];
  let html: string;
  let pageUrl = start;
  if (input.render) {
    const page = await renderPage(ctx, start, input.timeout_ms);
    html = page.html;
    pageUrl = page.finalUrl;
  } else {
    try {
      const got = await fetchFollowing(http, start, { signal: ctx.signal, timeoutMs: input.timeout_ms, maxBytes: PAGE_MAX_BYTES, maxHops: 10 });
      if (got.status < 200 || got.status >= 300 || !/html/i.test(got.contentType)) return [];
      html = got.body;
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      return [];
    }
  }
  const parsed = parseHtml(html, pageUrl);
  return parsed.links.map((l) => ({ url: l.url, title: l.text || null }));
}

/** Paths robots.txt allows by name ("Allow: /docs/"), without wildcards. */
function literalAllowPaths(robots: RobotsRules): string[] {
  return robots.literalAllows.filter((p) => /^\/[^*$]*$/.test(p));
}

function decodeSafe(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}
