// Which links a page has, as the browser resolved them: only http(s), fragments removed (in-page "#…"
// anchors dropped altogether), one entry per URL in order of first appearance. Internal means the same site as the page: the same registrable domain (public-suffix aware, so
// a.example.co.uk and b.example.co.uk are internal, user1.github.io and user2.github.io are not), or the
// same host when there is no registrable domain (IP addresses, localhost).
import { getDomain } from 'tldts';
import type { RawLink } from './page-scripts.js';

export type LinkFilter = 'all' | 'internal' | 'external';

export interface PageLink {
  url: string;
  text: string;
}

export function siteOf(hostname: string): string {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}

export function selectLinks(raw: RawLink[], pageUrl: string, filter: LinkFilter): PageLink[] {
  let pageSite: string | undefined;
  let pageWithoutFragment = '';
  try {
    const page = new URL(pageUrl);
    pageSite = siteOf(page.hostname);
    page.hash = '';
    pageWithoutFragment = page.href;
  } catch {
    pageSite = undefined;
  }
  const byUrl = new Map<string, PageLink>();
  for (const link of raw) {
    let url: URL;
    try {
      url = new URL(link.href);
    } catch {
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') continue;
    const hadFragment = url.hash !== '' || link.href.endsWith('#');
    url.hash = '';
    const key = url.href;
    // "#section" links point into the page itself: not a link to anything else.
    if (hadFragment && key === pageWithoutFragment) continue;
    const seen = byUrl.get(key);
    if (seen) {
      // Keep the first place the URL appears, but take a text from a later one if the first had none.
      if (!seen.text && link.text) seen.text = link.text;
      continue;
    }
    if (filter !== 'all') {
      const internal = pageSite !== undefined && siteOf(url.hostname) === pageSite;
      if ((filter === 'internal') !== internal) continue;
    }
    byUrl.set(key, { url: key, text: link.text });
  }
  return [...byUrl.values()];
}
