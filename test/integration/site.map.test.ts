// site.map against a generated site on loopback, under names served by a local Knot DNS (www. and blog.
// of one zone): robots.txt Sitemap lines, a sitemap index with a gzip child, the start page's links,
// scope and filters, and the network guard (a name resolving to loopback is blocked without the allowlist).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import tool from '../../tools/site.map.js';
import { createCrawlSite } from '../../bench/lib/crawl-site.mjs';
import { startKnot, type KnotServer } from '../support/knot.js';
import { startLocalServer, type LocalServer } from '../support/local-http.js';
import { makeToolContext, type TestToolContext } from '../support/tool-context.js';
import { boundedResult } from '../../src/engine/result-view.js';
import { ToolRegistry } from '../../src/registry/registry.js';

const ZONE = 'sitemap.test';
const HOSTS = [`www.${ZONE}`, `blog.${ZONE}`];
let knot: KnotServer;
let server: LocalServer;
let site: ReturnType<typeof createCrawlSite>;
const contexts: TestToolContext[] = [];

function context(extra: Record<string, string> = {}): TestToolContext {
  const c = makeToolContext({ NETWORK_ALLOWLIST: '127.0.0.1/32', DNS_SERVERS: knot.server, ...extra });
  contexts.push(c);
  return c;
}

async function map(args: Record<string, unknown>, ctx = context()) {
  const result = await tool.run(ctx, tool.input.parse(args));
  expect(() => tool.output.parse(result)).not.toThrow();
  return result;
}

beforeAll(async () => {
  let port = 0;
  site = createCrawlSite({ hosts: HOSTS, pages: 40, port: () => port });
  [server, knot] = await Promise.all([
    startLocalServer({ handler: (req, res) => site.handler(req, res) }),
    startKnot([{ origin: ZONE, records: ['* 300 IN A 127.0.0.1'] }]),
  ]);
  port = server.port;
}, 60_000);

afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  await server?.close();
  await knot?.stop();
});

describe('site.map', () => {
  it('lists sitemap pages (index and gzip child), robots paths and start-page links, normalised and de-duplicated', async () => {
    const start = `http://${HOSTS[0]}:${server.port}/`;
    const r = await map({ url: start, same_site: true, subdomains: true });
    const urls = r.urls.map((u) => u.url);
    expect(new Set(urls).size).toBe(urls.length);
    // Every page of both hosts is in the sitemaps (the second half comes from the .gz child).
    for (let i = 0; i < 40; i++) expect(urls).toContain(site.pageUrl(i));
    expect(r.urls.find((u) => u.url === site.pageUrl(39))).toMatchObject({ source: 'sitemap', lastmod: '2026-01-12' });
    expect(r.urls.find((u) => u.url.endsWith('/about'))?.source).toBe('robots');
    expect(r.urls.find((u) => u.url === start)?.source).toBe('links');
    // Tracking parameters, fragments, trailing slashes and host case collapsed into the sitemap's URLs.
    expect(urls.some((u) => /utm_|#|[A-Z]{3}/.test(u))).toBe(false);
    // /private/ is disallowed by robots.txt: found as a link, left out, and never fetched.
    expect(urls.some((u) => u.includes('/private/'))).toBe(false);
    expect(r.disallowed).toBeGreaterThan(0);
    expect(site.stats.disallowed).toBe(0);
  });

  it('keeps the start host only by default, and applies include, exclude, search and limit', async () => {
    const start = `http://${HOSTS[0]}:${server.port}/`;
    const hostOnly = await map({ url: start });
    expect(hostOnly.urls.every((u) => new URL(u.url).hostname === HOSTS[0])).toBe(true);
    const filtered = await map({ url: start, include: ['/p/**'], exclude: ['/p/1*'] });
    expect(filtered.urls.length).toBeGreaterThan(0);
    expect(filtered.urls.every((u) => /\/p\/(?!1)\d+$/.test(new URL(u.url).pathname))).toBe(true);
    const searched = await map({ url: start, search: 'calendar' });
    expect(searched.urls.map((u) => new URL(u.url).pathname)).toEqual(['/calendar/2026/1']);
    const limited = await map({ url: start, limit: 5 });
    expect(limited.count).toBe(5);
    const onlySitemap = await map({ url: start, sitemap: 'only' });
    expect(onlySitemap.urls.every((u) => u.source === 'sitemap')).toBe(true);
  });

  it('comes in parts a caller can hold, read back whole from the stored result', async () => {
    const whole = await map({ url: `http://${HOSTS[0]}:${server.port}/`, same_site: true, subdomains: true });
    // What a front door does with the stored task: one window per read, the next one from next_offset.
    const registry = new ToolRegistry([tool]);
    const task = { status: 'complete' as const, tool: tool.name, result: whole, input: {} };
    type Part = { urls: { url: string }[]; count: number; truncated: boolean; next_offset: number | null; total_chars: number };
    const read: string[] = [];
    let offset: number | null = 0;
    let parts = 0;
    while (offset !== null) {
      const part = boundedResult(task, { registry, maxChars: 1_000, range: { offset } }) as Part;
      expect(JSON.stringify(part.urls).length).toBeLessThan(1_000 + 300);
      expect(part.count).toBe(whole.count);
      read.push(...part.urls.map((u) => u.url));
      offset = part.next_offset;
      parts++;
    }
    expect(parts).toBeGreaterThan(3);
    expect(read).toEqual(whole.urls.map((u) => u.url));
  });

  it('refuses a name that resolves to loopback when the allowlist does not open it', async () => {
    const ctx = context({ NETWORK_ALLOWLIST: '' });
    const before = server.requests.length;
    await expect(map({ url: `http://${HOSTS[0]}:${server.port}/` }, ctx)).rejects.toThrow(/private address/);
    expect(server.requests.length).toBe(before);
  });
});
