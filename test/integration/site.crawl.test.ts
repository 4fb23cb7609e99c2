// site.crawl end to end on SQLite and PostgreSQL: created over REST with an API key, every page a site.page
// child task, against a generated site on loopback under names a local Knot DNS resolves (two hosts of one
// zone). Checked from the server's side: no robots-disallowed request, no page asked for twice, traps
// bounded; from the caller's: results in crawl order as signed JSONL, per-page charges, cancel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCrawlSite } from '../../bench/lib/crawl-site.mjs';
import { startKnot, type KnotServer } from '../support/knot.js';
import { startLocalServer, type LocalServer } from '../support/local-http.js';
import { settleTask } from '../support/task-wait.js';
import { api, startTestService, type TestService } from '../support/service.js';
import { serviceBackends as backends } from '../support/store-factories.js';

const ZONE = 'crawl.test';
const HOSTS = [`www.${ZONE}`, `docs.${ZONE}`];
const PAGES = 60;

let knot: KnotServer;

beforeAll(async () => {
  knot = await startKnot([{ origin: ZONE, records: ['* 300 IN A 127.0.0.1'] }]);
}, 60_000);
afterAll(async () => {
  await knot?.stop();
});

async function startSite(crawlDelay?: number) {
  let port = 0;
  const site = createCrawlSite({ hosts: HOSTS, pages: PAGES, port: () => port, slowMs: 20, ...(crawlDelay ? { crawlDelay } : {}) });
  const server: LocalServer = await startLocalServer({ handler: (req, res) => site.handler(req, res) });
  port = server.port;
  return { site, server, start: `http://${HOSTS[0]}:${port}/` };
}

describe.each(backends)('site.crawl ($name)', ({ env }) => {
  let svc: TestService;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const b = await env();
    drop = b.drop;
    svc = await startTestService({ ...b.env, NETWORK_ALLOWLIST: '127.0.0.1/32', DNS_SERVERS: knot.server, WORKER_CONCURRENCY: '32' });
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
    await drop?.();
  });

  /** The crawl task's final body, once it ended. */
  const finished = async (created: { body: any }) => (await settleTask(svc.url, { id: created.body.task_id, token: created.body.poll_token })).body;

  async function lines(resultsUrl: string) {
    const out: any[] = [];
    let path: string | null = resultsUrl.replace(/limit=\d+&?/, '') + '&limit=25';
    while (path) {
      const r: Response = await fetch(`${svc.url}${path}`);
      expect(r.status).toBe(200);
      out.push(
        ...(await r.text())
          .split('\n')
          .filter(Boolean)
          .map((l: string) => JSON.parse(l)),
      );
      const link: string | null = r.headers.get('link');
      path = link ? /<([^>]+)>/.exec(link)![1]! : null;
    }
    return out;
  }

  it('crawls both hosts politely: robots obeyed, each page fetched once, traps bounded, results in crawl order', async () => {
    const { site, server, start } = await startSite();
    const { key, id: keyId } = await svc.createKey(1);
    const created = await api(svc.url, 'POST', '/v1/tools/site.crawl/tasks', {
      token: key,
      body: { url: start, subdomains: true, limit: 500, max_depth: 20, formats: ['markdown', 'metadata'] },
    });
    expect(created.status).toBe(202);
    const done = await finished(created);
    expect(done.status, JSON.stringify(done)).toBe('complete');
    const result = done.result;
    // Every generated page of both hosts, and nothing disallowed or fetched twice.
    expect(site.stats.disallowed).toBe(0);
    expect(site.duplicateFetches()).toBe(0);
    expect(result.skipped.robots).toBeGreaterThan(0);
    // A read-only signed link, not the poll token (which would also cancel the crawl); a forged one is refused.
    expect(result.results_url).toMatch(/[?&]sig=/);
    expect(result.results_url).not.toMatch(/[?&]token=/);
    const forged = await fetch(`${svc.url}${result.results_url.replace(/sig=[^&]+/, 'sig=AAAA')}`);
    expect(forged.status).toBe(403);
    const all = await lines(result.results_url);
    expect(all.length).toBe(result.pages);
    expect(all.map((l) => l.index)).toEqual(all.map((_, i) => i));
    const pages = all.filter((l) => /\/p\/\d+$/.test(l.url));
    const urls = new Set(pages.map((l) => l.url));
    for (let i = 0; i < PAGES; i++) expect(urls.has(site.pageUrl(i)), site.pageUrl(i)).toBe(true);
    expect(all[0]).toMatchObject({ url: start, depth: 0, status: 'complete', status_code: 200 });
    expect(pages.find((l) => l.url === site.pageUrl(7))?.result.markdown).toContain('This is page number 7');
    expect(pages.find((l) => l.url === site.pageUrl(7))?.result.metadata).toMatchObject({ title: 'Page 7' });
    // Breadth-first: the start page, then its links; every page within max_depth.
    expect(all.slice(1, 4).every((l) => l.depth === 1)).toBe(true);
    expect(all.every((l) => l.depth <= 20)).toBe(true);
    // Traps: the calendar at most 12 months, the search page at most 20 queries, repeating segments cut at 2.
    const calendar = all.filter((l) => l.url.includes('/calendar/'));
    expect(calendar.length).toBeGreaterThan(0);
    expect(calendar.length).toBeLessThanOrEqual(12 * HOSTS.length);
    expect(all.filter((l) => l.url.includes('/search')).length).toBeLessThanOrEqual(20 * HOSTS.length);
    expect(all.filter((l) => /\/a\/a\/a\//.test(l.url))).toEqual([]);
    // The session-id trap is one page per host (sid dropped), the redirect loop two, the redirect one hop.
    expect(all.filter((l) => l.url.includes('/shop')).length).toBeLessThanOrEqual(HOSTS.length);
    // (The traps are linked from every tenth page, all on the first host.)
    expect(all.filter((l) => /loop-[ab]$/.test(l.url)).length).toBe(2);
    expect(all.find((l) => /\/r\/\d+$/.test(l.url))?.status_code).toBe(301);
    expect(all.some((l) => l.status_code === 404)).toBe(true);
    // Charged 0.002 for the crawl and 0.001 a page (failed pages refunded; none failed here).
    expect(result.counts.failed).toBe(0);
    expect((await svc.rt.store.findKey(keyId))!.balanceMicros).toBe(1_000_000 - 2_000 - result.pages * 1_000);
    await server.close();
  }, 120_000);

  it('refuses a blocked start URL (403) and a bad field (400 naming it) before charging', async () => {
    const { key, id } = await svc.createKey(1);
    const blocked = await api(svc.url, 'POST', '/v1/tools/site.crawl/tasks', { token: key, body: { url: 'http://10.1.2.3/' } });
    expect(blocked.status).toBe(403);
    expect(blocked.body).toMatchObject({ code: 'BLOCKED_TARGET', field: 'url' });
    const bad = await api(svc.url, 'POST', '/v1/tools/site.crawl/tasks', { token: key, body: { url: 'http://example.test/', limit: 20_000 } });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('limit');
    const map = await api(svc.url, 'POST', '/v1/tools/site.map/tasks', { token: key, body: { url: 'http://example.test/', include: 'docs' } });
    expect(map.status).toBe(400);
    expect(map.body.field).toBe('include');
    expect((await svc.rt.store.findKey(id))!.balanceMicros).toBe(1_000_000);
  });

  it('stops at limit and at max_cost, and keeps to the start host by default', async () => {
    const { server, start } = await startSite();
    const { key } = await svc.createKey(1);
    const limited = await api(svc.url, 'POST', '/v1/tools/site.crawl/tasks', { token: key, body: { url: start, limit: 10, sources: 'links' } });
    const a = (await finished(limited)).result;
    expect(a).toMatchObject({ pages: 10, stopped_by: 'limit' });
    const priced = await api(svc.url, 'POST', '/v1/tools/site.crawl/tasks', { token: key, body: { url: start, limit: 100, max_cost: 0.005 } });
    const b = (await finished(priced)).result;
    expect(b).toMatchObject({ pages: 5, stopped_by: 'max_cost', cost_usd: '0.005' });
    const urls = (await lines(b.results_url)).map((l) => new URL(l.url).hostname);
    expect(new Set(urls)).toEqual(new Set([HOSTS[0]]));
    await server.close();
  }, 60_000);

  it('spaces requests to a host by its Crawl-delay, one at a time', async () => {
    const { site, server, start } = await startSite(1);
    const { key } = await svc.createKey(1);
    const created = await api(svc.url, 'POST', '/v1/tools/site.crawl/tasks', { token: key, body: { url: start, limit: 3, sources: 'links' } });
    const done = await finished(created);
    expect(done.result.pages).toBe(3);
    const times = site.stats.times.filter((t) => t.host === HOSTS[0]).map((t) => t.at);
    // robots.txt, then three pages: each page request at least the delay after the previous one settled.
    const pageTimes = times.slice(1);
    for (let i = 1; i < pageTimes.length; i++) expect(pageTimes[i]! - pageTimes[i - 1]!).toBeGreaterThanOrEqual(1000);
    await server.close();
  }, 60_000);

  it('GET /v1/tasks/{id} of a running crawl shows its pages done, queued, running and failed', async () => {
    const { server, start } = await startSite(1);
    const { key } = await svc.createKey(1);
    const created = await api(svc.url, 'POST', '/v1/tools/site.crawl/tasks', { token: key, body: { url: start, limit: 4, sources: 'links' } });
    // With a 1 s Crawl-delay the crawl runs for seconds: look until a page is done while it still runs.
    let seen: any;
    for (let i = 0; i < 400 && !seen; i++) {
      const t = await api(svc.url, 'GET', `/v1/tasks/${created.body.task_id}`, { token: created.body.poll_token });
      if (t.body.status === 'running' && t.body.progress?.pages_done >= 1) seen = t.body;
      else if (t.body.status !== 'running' && t.body.status !== 'pending') throw new Error(`the crawl ended before its progress was seen: ${t.body.status}`);
      else await new Promise((r) => setTimeout(r, 25));
    }
    expect(seen.progress).toEqual({
      pages_done: expect.any(Number),
      pages_queued: expect.any(Number),
      pages_running: expect.any(Number),
      pages_failed: 0,
    });
    expect(seen.progress.pages_done + seen.progress.pages_queued + seen.progress.pages_running).toBeLessThanOrEqual(4);
    const done = await finished(created);
    expect(done.result.counts.complete).toBe(done.result.pages);
    // A finished crawl's view has no progress: its result has the counts.
    expect(done.progress).toBeUndefined();
    await server.close();
  }, 60_000);

  it('cancelling the crawl cancels the pages not yet fetched and refunds them', async () => {
    const { server, start } = await startSite(2);
    const { key, id: keyId } = await svc.createKey(1);
    const created = await api(svc.url, 'POST', '/v1/tools/site.crawl/tasks', { token: key, body: { url: start, limit: 50, sources: 'sitemaps' } });
    // With a 2 s Crawl-delay the crawl is still running: wait for its first page, then cancel.
    for (let i = 0; i < 100; i++) {
      const t = await api(svc.url, 'GET', `/v1/tasks/${created.body.task_id}`, { token: created.body.poll_token });
      if (t.body.progress?.total >= 1 || t.body.status === 'running') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const cancelled = await api(svc.url, 'POST', `/v1/tasks/${created.body.task_id}/cancel`, { token: created.body.poll_token });
    expect([200, 202]).toContain(cancelled.status);
    const done = await finished(created);
    expect(done.status).toBe('cancelled');
    // Whatever ran was charged; what was cancelled came back: the crawl's price is refunded too.
    const balance = (await svc.rt.store.findKey(keyId))!.balanceMicros;
    expect(balance).toBeGreaterThanOrEqual(1_000_000 - 2 * 1_000);
    await server.close();
  }, 60_000);
});
