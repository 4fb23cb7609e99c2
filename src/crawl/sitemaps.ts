// Sitemaps (sitemaps.org): a <urlset> lists pages with their lastmod, a <sitemapindex> lists more sitemaps,
// a .txt sitemap lists one URL a line; any may be gzip. Read with fast-xml-parser, fetched through the
// guard, each sitemap file once, at most MAX_SITEMAP_FILES of them and nested at most MAX_INDEX_DEPTH deep.
import { XMLParser } from 'fast-xml-parser';
import type { HttpClient } from '../net/http-client.js';
import { fetchFollowing } from './fetch-text.js';

export const MAX_SITEMAP_FILES = 50;
const MAX_INDEX_DEPTH = 3;
/** The sitemaps.org limit is 50 MB uncompressed. */
const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;

export interface SitemapEntry {
  url: string;
  lastmod: string | null;
}

export interface ParsedSitemap {
  pages: SitemapEntry[];
  sitemaps: string[];
}

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  processEntities: true,
  isArray: (name) => name === 'url' || name === 'sitemap',
});

export function parseSitemap(text: string): ParsedSitemap {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('<')) {
    // A text sitemap: one absolute URL a line.
    const pages = trimmed
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => /^https?:\/\//i.test(l))
      .map((url) => ({ url, lastmod: null }));
    return { pages, sitemaps: [] };
  }
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(trimmed) as Record<string, unknown>;
  } catch {
    return { pages: [], sitemaps: [] };
  }
  const urlset = doc.urlset as { url?: unknown[] } | undefined;
  const index = doc.sitemapindex as { sitemap?: unknown[] } | undefined;
  return {
    pages: entries(urlset?.url),
    sitemaps: entries(index?.sitemap).map((e) => e.url),
  };
}

function entries(list: unknown[] | undefined): SitemapEntry[] {
  const out: SitemapEntry[] = [];
  for (const item of list ?? []) {
    if (!item || typeof item !== 'object') continue;
    const { loc, lastmod } = item as { loc?: unknown; lastmod?: unknown };
    if (typeof loc !== 'string' || loc.trim() === '') continue;
    out.push({ url: loc.trim(), lastmod: typeof lastmod === 'string' && lastmod.trim() ? lastmod.trim() : null });
  }
  return out;
}

export interface ReadSitemapsOptions {
  signal?: AbortSignal | undefined;
  timeoutMs: number;
  /** Stop once this many page entries were read. */
  maxPages: number;
}

/** Page entries of the sitemaps reachable from `seeds` (indexes followed), in the order read. */
export async function readSitemaps(http: HttpClient, seeds: readonly string[], o: ReadSitemapsOptions): Promise<SitemapEntry[]> {
  const pages: SitemapEntry[] = [];
  const seen = new Set<string>();
  let queue = seeds.map((url) => ({ url, depth: 0 }));
  let files = 0;
  while (queue.length > 0 && pages.length < o.maxPages && files < MAX_SITEMAP_FILES) {
    const next: { url: string; depth: number }[] = [];
    for (const { url, depth } of queue) {
      if (seen.has(url) || files >= MAX_SITEMAP_FILES || pages.length >= o.maxPages) continue;
      seen.add(url);
      files++;
      let text: string;
      try {
        const got = await fetchFollowing(http, url, { signal: o.signal, timeoutMs: o.timeoutMs, maxBytes: MAX_SITEMAP_BYTES, maxHops: 5 });
        if (got.status < 200 || got.status >= 300) continue;
        text = got.body;
      } catch (err) {
        if (o.signal?.aborted) throw err;
        continue;
      }
      const parsed = parseSitemap(text);
      for (const p of parsed.pages) if (pages.length < o.maxPages) pages.push(p);
      if (depth < MAX_INDEX_DEPTH) for (const s of parsed.sitemaps) next.push({ url: s, depth: depth + 1 });
    }
    queue = next;
  }
  return pages;
}
