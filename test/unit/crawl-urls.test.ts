// URL normalisation and de-duplication, scope and globs, sitemap and robots.txt parsing: pure functions.
import { describe, expect, it } from 'vitest';
import { normaliseUrl, urlKey, UrlSet } from '../../src/crawl/normalise-url.js';
import { UrlScope } from '../../src/crawl/url-scope.js';
import { parseSitemap } from '../../src/crawl/sitemaps.js';
import { parseRobots } from '../../src/crawl/robots.js';
import { parseHtml } from '../../src/crawl/html-page.js';

describe('normaliseUrl', () => {
  it.each([
    ['HTTP://Example.COM:80/a', 'http://example.com/a'],
    ['https://example.com:443/a', 'https://example.com/a'],
    ['https://example.com:8443/a', 'https://example.com:8443/a'],
    ['https://example.com/a#section', 'https://example.com/a'],
    ['https://example.com/a?utm_source=x&utm_medium=y', 'https://example.com/a'],
    ['https://example.com/a?b=2&gclid=abc&a=1', 'https://example.com/a?a=1&b=2'],
    ['https://example.com/a?PHPSESSID=123&page=2', 'https://example.com/a?page=2'],
    ['https://example.com/a;jsessionid=ABC123?x=1', 'https://example.com/a?x=1'],
    ['https://example.com/%7euser/%41b', 'https://example.com/~user/Ab'],
    ['https://example.com/a/%2f', 'https://example.com/a/%2F'],
    ['https://example.com./a', 'https://example.com/a'],
    ['https://user:pw@example.com/a', 'https://example.com/a'],
    ['https://example.com/a/../b/./c', 'https://example.com/b/c'],
    ['https://example.com/a?', 'https://example.com/a'],
  ])('%s → %s', (raw, expected) => {
    expect(normaliseUrl(raw)).toBe(expected);
  });

  it('resolves relative links against the page and refuses other schemes', () => {
    expect(normaliseUrl('../x?utm_campaign=1', 'https://example.com/a/b/')).toBe('https://example.com/a/x');
    expect(normaliseUrl('mailto:a@example.com')).toBeNull();
    expect(normaliseUrl('javascript:void(0)', 'https://example.com/')).toBeNull();
    expect(normaliseUrl('not a url')).toBeNull();
  });

  it('keys a path with and without its trailing slash as one page, but keeps the root', () => {
    expect(urlKey('https://example.com/docs/')).toBe('https://example.com/docs');
    expect(urlKey('https://example.com/docs/?a=1')).toBe('https://example.com/docs?a=1');
    expect(urlKey('https://example.com/')).toBe('https://example.com/');
    const set = new UrlSet();
    const spellings = [
      'https://Example.com/docs/',
      'https://example.com/docs',
      'https://example.com:443/docs#top',
      'https://example.com/docs?utm_source=newsletter',
      'https://EXAMPLE.com/docs/?fbclid=1',
    ];
    const added = spellings.map((u) => set.add(normaliseUrl(u)!));
    expect(added).toEqual([true, false, false, false, false]);
    expect(set.size).toBe(1);
    expect(set.add(normaliseUrl('https://example.com/Docs')!)).toBe(true); // paths are case-sensitive
  });
});

describe('UrlScope', () => {
  it('keeps the start host, or its site with subdomains, and applies include/exclude globs on the path', () => {
    const host = new UrlScope('https://www.example.co.uk/', { same_site: true, subdomains: false });
    expect(host.allows('https://www.example.co.uk/a')).toBe(true);
    expect(host.allows('https://blog.example.co.uk/a')).toBe(false);
    const site = new UrlScope('https://www.example.co.uk/', { same_site: true, subdomains: true });
    expect(site.allows('https://blog.example.co.uk/a')).toBe(true);
    expect(site.allows('https://other.co.uk/a')).toBe(false);
    const any = new UrlScope('https://www.example.co.uk/', { same_site: false, subdomains: false });
    expect(any.allows('https://other.example/a')).toBe(true);
    const globs = new UrlScope('https://example.com/', { same_site: true, subdomains: false, include: ['/docs/**'], exclude: ['*.pdf', '/docs/old/**'] });
    expect(globs.allows('https://example.com/docs/intro')).toBe(true);
    expect(globs.allows('https://example.com/docs/guide/a.pdf')).toBe(false);
    expect(globs.allows('https://example.com/docs/old/x')).toBe(false);
    expect(globs.allows('https://example.com/blog/x')).toBe(false);
  });
});

describe('parseSitemap', () => {
  it('reads a urlset with lastmod, a sitemap index, and a text sitemap', () => {
    const urlset = parseSitemap(
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">` +
        `<url><loc> https://a.example/x </loc><lastmod>2024-05-01</lastmod><image:image><image:loc>https://a.example/i.png</image:loc></image:image></url>` +
        `<url><loc>https://a.example/y?a=1&amp;b=2</loc></url></urlset>`,
    );
    expect(urlset.pages).toEqual([
      { url: 'https://a.example/x', lastmod: '2024-05-01' },
      { url: 'https://a.example/y?a=1&b=2', lastmod: null },
    ]);
    const index = parseSitemap(
      `<sitemapindex><sitemap><loc>https://a.example/s1.xml</loc></sitemap><sitemap><loc>https://a.example/s2.xml.gz</loc></sitemap></sitemapindex>`,
    );
    expect(index.sitemaps).toEqual(['https://a.example/s1.xml', 'https://a.example/s2.xml.gz']);
    expect(parseSitemap('https://a.example/1\nhttps://a.example/2\n\nnot-a-url').pages.map((p) => p.url)).toEqual([
      'https://a.example/1',
      'https://a.example/2',
    ]);
    expect(parseSitemap('<urlset><url><loc>').pages).toEqual([]);
  });
});

describe('parseRobots', () => {
  it("obeys the crawler's own group over *, reads Crawl-delay (capped) and Sitemap lines", () => {
    const robots = parseRobots(
      'https://a.example/robots.txt',
      'User-agent: *\nDisallow: /\n\nUser-agent: agent-utility\nDisallow: /private/\nAllow: /private/open\nCrawl-delay: 2\n\nSitemap: https://a.example/s.xml\n',
    );
    expect(robots.allows('https://a.example/docs')).toBe(true);
    expect(robots.allows('https://a.example/private/x')).toBe(false);
    expect(robots.allows('https://a.example/private/open')).toBe(true);
    expect(robots.crawlDelayS).toBe(2);
    expect(robots.sitemaps).toEqual(['https://a.example/s.xml']);
    expect(parseRobots('https://a.example/robots.txt', 'User-agent: *\nCrawl-delay: 3600').crawlDelayS).toBe(30);
  });
});

describe('parseHtml', () => {
  it('resolves links against <base>, skips rel=nofollow links, reads title, metadata and the robots meta tag', () => {
    const page = parseHtml(
      `<html lang="de"><head><base href="https://cdn.example/root/"><title> A  page </title><meta name="description" content="About">` +
        `<meta property="og:title" content="OG"><link rel="canonical" href="/canon"><meta name="robots" content="noindex, nofollow"></head>` +
        `<body><a href="x">X <b>bold</b></a><a href="https://o.example/" rel="nofollow">no</a><a href="mailto:a@b.c">m</a></body></html>`,
      'https://a.example/page',
    );
    expect(page.links).toEqual([{ url: 'https://cdn.example/root/x', text: 'X bold' }]);
    expect(page.metadata).toMatchObject({
      title: 'A page',
      description: 'About',
      canonical: 'https://cdn.example/canon',
      language: 'de',
      og: { 'og:title': 'OG' },
    });
    expect(page.nofollow).toBe(true);
  });
});
