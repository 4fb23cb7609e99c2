// Bot walls end to end: every wall pattern of the fixture set, served on loopback, fails a browser task with
// error_code BLOCKED_BY_SITE over REST and MCP and is refunded (the key's balance is unchanged), never a page
// of wall text; the look-alike pages (articles mentioning the words, a site's own 403/404, forms with a
// captcha) come back as pages. In site.crawl a walled page is a failed, refunded page and the crawl goes on,
// with render false and true.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../support/local-http.js';
import { startMcpService, type McpTestService } from '../support/mcp-service.js';
import { settleTask } from '../support/task-wait.js';
import { api } from '../support/service.js';
import { PAGE_FIXTURES, WALL_FIXTURES, type WallFixture } from '../support/bot-wall-pages.js';

let svc: McpTestService;
let site: LocalServer;

function fixtureAt(path: string): WallFixture | undefined {
  const m = /^\/(wall|page)\/(\d+)$/.exec(path);
  if (!m) return undefined;
  return (m[1] === 'wall' ? WALL_FIXTURES : PAGE_FIXTURES)[Number(m[2])];
}

beforeAll(async () => {
  site = await startLocalServer({
    handler(req, res) {
      const path = (req.url ?? '/').split('?')[0]!;
      if (path === '/') {
        const links = [...WALL_FIXTURES.map((_, i) => `/wall/${i}`), ...PAGE_FIXTURES.map((_, i) => `/page/${i}`)];
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(`<html><head><title>Start</title></head><body><h1>Start</h1>${links.map((l) => `<p><a href="${l}">${l}</a></p>`).join('')}</body></html>`);
        return;
      }
      const f = fixtureAt(path);
      if (!f) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
        return;
      }
      res.writeHead(f.status, { 'content-type': 'text/html; charset=utf-8', ...f.headers });
      res.end(f.html);
    },
  });
  svc = await startMcpService({ NETWORK_ALLOWLIST: '127.0.0.1/32', BROWSER_CONCURRENCY: '2', WORKER_CONCURRENCY: '8' });
}, 60_000);

afterAll(async () => {
  await svc?.close();
  await site?.close();
});

async function balance(id: string) {
  return (await svc.rt.store.findKey(id))!.balanceMicros;
}

async function runRest(tool: string, body: Record<string, unknown>, key: string) {
  const created = await api(svc.url, 'POST', `/v1/tools/${tool}/tasks`, { token: key, body });
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  return settleTask(svc.url, { id: created.body.task_id, token: key }).then((t) => t.body);
}

describe('bot walls', () => {
  it('every wall pattern fails browser.markdown with BLOCKED_BY_SITE over REST, refunded', async () => {
    const { key, id } = await svc.createKey(1);
    for (const [i, f] of WALL_FIXTURES.entries()) {
      const task = await runRest('browser.markdown', { url: `${site.origin}/wall/${i}` }, key);
      expect(task.status, `${f.name}: ${JSON.stringify(task)}`).toBe('failed');
      expect(task.error_code, f.name).toBe('BLOCKED_BY_SITE');
      expect(task.error).toMatch(/bot wall.*Signals: /);
      expect(task.result).toBeNull();
    }
    expect(await balance(id)).toBe(1_000_000);
  }, 180_000);

  it('a wall reached by an action (a click on a link) fails the task too, refunded', async () => {
    const { key, id } = await svc.createKey(1);
    const task = await runRest('browser.markdown', { url: `${site.origin}/`, actions: [{ type: 'click', selector: 'a[href="/wall/3"]' }] }, key);
    expect(task.status, JSON.stringify(task)).toBe('failed');
    expect(task.error_code).toBe('BLOCKED_BY_SITE');
    expect(await balance(id)).toBe(1_000_000);
    // The same click to a look-alike page is read as the page it leads to.
    const page = await runRest(
      'browser.markdown',
      {
        url: `${site.origin}/`,
        actions: [
          { type: 'click', selector: 'a[href="/page/0"]' },
          { type: 'wait', milliseconds: 200 },
        ],
      },
      key,
    );
    expect(page.status, JSON.stringify(page)).toBe('complete');
  }, 120_000);

  it('the look-alike pages come back as pages (charged), with their own status', async () => {
    const { key, id } = await svc.createKey(1);
    for (const [i, f] of PAGE_FIXTURES.entries()) {
      const task = await runRest('browser.markdown', { url: `${site.origin}/page/${i}` }, key);
      expect(task.status, `${f.name}: ${JSON.stringify(task)}`).toBe('complete');
      expect(task.error_code).toBeUndefined();
      expect(task.result.markdown.length, f.name).toBeGreaterThan(0);
    }
    expect(await balance(id)).toBe(1_000_000 - PAGE_FIXTURES.length * 3_000);
  }, 180_000);

  it('other browser tools refuse a wall too (screenshot, content)', async () => {
    const { key, id } = await svc.createKey(1);
    for (const tool of ['browser.screenshot', 'browser.content']) {
      const task = await runRest(tool, { url: `${site.origin}/wall/0` }, key);
      expect(task.status, `${tool}: ${JSON.stringify(task)}`).toBe('failed');
      expect(task.error_code).toBe('BLOCKED_BY_SITE');
    }
    expect(await balance(id)).toBe(1_000_000);
  }, 120_000);

  it('a wall with a wait_for selector it never shows is still BLOCKED_BY_SITE, not a missing selector', async () => {
    const { key, id } = await svc.createKey(1);
    const denied = WALL_FIXTURES.findIndex((f) => f.name.includes('Access Denied'));
    const task = await runRest('browser.markdown', { url: `${site.origin}/wall/${denied}`, wait_for: '#article', timeout_ms: 5_000 }, key);
    expect(task.status, JSON.stringify(task)).toBe('failed');
    expect(task.error_code).toBe('BLOCKED_BY_SITE');
    expect(task.error).toContain('status 403');
    expect(await balance(id)).toBe(1_000_000);
  }, 120_000);

  it('over MCP a wall is an error result naming BLOCKED_BY_SITE, refunded', async () => {
    const { key, id } = await svc.createKey(1);
    const client = await svc.connect({ key });
    const wall = WALL_FIXTURES.findIndex((f) => f.name.includes('captcha frame'));
    const res = await client.callTool({ name: 'browser_markdown', arguments: { url: `${site.origin}/wall/${wall}` } });
    expect(res.isError).toBe(true);
    const text = (res.content as { type: string; text: string }[])[0]!.text;
    expect(text).toMatch(/^BLOCKED_BY_SITE: .*captcha or challenge frame/);
    expect(res._meta?.['agent-utility/error_code']).toBe('BLOCKED_BY_SITE');
    expect(await balance(id)).toBe(1_000_000);
    const page = await client.callTool({ name: 'browser_markdown', arguments: { url: `${site.origin}/page/0` } });
    expect(page.isError).toBeFalsy();
  }, 120_000);

  it.each([false, true])(
    'site.crawl (render %s): walled pages fail with BLOCKED_BY_SITE and are refunded, the crawl goes on',
    async (render) => {
      const { key, id } = await svc.createKey(1);
      const task = await runRest('site.crawl', { url: `${site.origin}/`, limit: 50, max_depth: 1, render, formats: ['markdown'] }, key);
      expect(task.status, JSON.stringify(task)).toBe('complete');
      const lines: any[] = [];
      let path: string | null = task.result.results_url;
      while (path) {
        const r: Response = await fetch(`${svc.url}${path}`);
        expect(r.status).toBe(200);
        lines.push(
          ...(await r.text())
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l)),
        );
        const link: string | null = r.headers.get('link');
        path = link ? /<([^>]+)>/.exec(link)![1]! : null;
      }
      for (const [i, f] of WALL_FIXTURES.entries()) {
        const line = lines.find((l) => l.url === `${site.origin}/wall/${i}`);
        expect(line, f.name).toBeDefined();
        expect(line.status, `${f.name}: ${JSON.stringify(line)}`).toBe('failed');
        expect(line.error_code).toBe('BLOCKED_BY_SITE');
      }
      for (const [i, f] of PAGE_FIXTURES.entries()) {
        const line = lines.find((l) => l.url === `${site.origin}/page/${i}`);
        expect(line?.status, `${f.name}: ${JSON.stringify(line)}`).toBe('complete');
      }
      expect(task.result.counts.failed).toBe(WALL_FIXTURES.length);
      // 0.002 for the crawl and 0.001 (rendered: 0.003) for each page that was not a wall.
      const perPage = render ? 3_000 : 1_000;
      expect(await balance(id)).toBe(1_000_000 - 2_000 - (task.result.pages - WALL_FIXTURES.length) * perPage);
    },
    240_000,
  );
});
