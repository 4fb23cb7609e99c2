// What a page may reach. Everything Chromium does goes through the guarded proxy, so a page served from
// an allowed address cannot make the browser reach a blocked one: not with sub-resources, iframes,
// fetch, WebSockets, beacons, workers, redirects, names that resolve to blocked addresses, nor the
// proxy's own port. The canary listens on 127.0.0.2 (blocked: NETWORK_ALLOWLIST is 127.0.0.1/32) and
// must see no connection at all. A control run with 127.0.0.0/8 allowed shows the probes do reach it.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Forbidden } from '../../src/errors.js';
import { BlockedTargetError } from '../../src/net/errors.js';
import { browserPoolService } from '../../src/browser/service.js';
import { netGuardService } from '../../src/net/guard.js';
import content from '../../tools/browser.content.js';
import screenshot from '../../tools/browser.screenshot.js';
import { startBrowserHarness, type BrowserHarness } from '../support/browser-harness.js';
import { startLocalServer, type LocalServer } from '../support/local-http.js';

let h: BrowserHarness;
let canary: LocalServer;
beforeAll(async () => {
  canary = await startLocalServer({ host: '127.0.0.2' });
  h = await startBrowserHarness();
});
afterAll(async () => {
  await h?.close();
  await canary?.close();
});

const canaryName = () => `canary.fixture.test:${canary.port}`;
/** The probe page marks its outcomes done once its fetch and WebSocket have settled. */
const PROBED = '#out[data-done="yes"]';
/** What the fixture page's script reported in <p id="out"> (the script's own source mentions every outcome). */
const reported = (html: string) => /<p id="out"[^>]*>([^<]*)<\/p>/.exec(html)?.[1] ?? '';

describe('the guarded proxy', () => {
  it('lets a page load everything from an allowed host (control for the probes below)', async () => {
    const before = h.fixture.paths.length;
    const out = await h.run(content, { url: h.siteUrl(`/probe?target=http://site.fixture.test:${h.fixture.port}`), wait: 'idle', wait_for: PROBED });
    const seen = h.fixture.paths.slice(before);
    for (const p of ['/img.png', '/frame', '/style.css', '/script.js', '/fetch', '/beacon', '/worker']) expect(seen).toContain(p);
    expect(reported(out.html).split(',')).toContain('fetch ok');
  });

  it('blocks every kind of connection to a name resolving to a blocked address; the canary sees nothing', async () => {
    for (const target of [`http://${canaryName()}`, `https://${canaryName()}`, `http://127.0.0.2:${canary.port}`, `http://mixed.fixture.test:${canary.port}`]) {
      const out = await h.run(content, { url: h.siteUrl(`/probe?target=${encodeURIComponent(target)}`), wait: 'idle', wait_for: PROBED });
      const outcomes = reported(out.html).split(',');
      expect(outcomes).toContain('fetch failed');
      expect(outcomes).toContain('ws failed');
    }
    expect(canary.connections).toBe(0);
    expect(canary.requests).toEqual([]);
  });

  it('applies the same rules to html input', async () => {
    const html = `<img src="http://${canaryName()}/x.png"><iframe src="http://${canaryName()}/f"></iframe><img src="/relative.png"><script>fetch('http://${canaryName()}/js')</script>`;
    const out = await h.run(screenshot, { html, wait: 'idle', width: 200, height: 100 });
    expect(out.width).toBe(200);
    expect(canary.connections).toBe(0);
  });

  it('refuses a blocked page at submission (403 BLOCKED_TARGET naming url)', async () => {
    for (const url of [
      `http://${canaryName()}/`,
      `http://127.0.0.2:${canary.port}/`,
      `http://mixed.fixture.test:${canary.port}/`,
      'http://10.1.2.3/',
      'http://[::1]/',
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      const err = await h.run(content, { url }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Forbidden);
      expect(err).toMatchObject({ status: 403, code: 'BLOCKED_TARGET', field: 'url' });
    }
    expect(canary.connections).toBe(0);
  });

  it('resolves no name before payment, and never tells what a name resolved to', async () => {
    const ctx = h.context();
    const submit = { config: ctx.config, use: ctx.use.bind(ctx) } as Parameters<NonNullable<typeof content.precheck>>[0];
    const guard = await ctx.use(netGuardService);
    const resolve = guard.resolve.bind(guard);
    let lookups = 0;
    guard.resolve = (...args) => (lookups++, resolve(...args));
    try {
      const input = content.input.parse({ url: `http://${canaryName()}/` });
      // precheck runs before the caller is asked to pay (the 402): no DNS there.
      await content.precheck!(submit, input);
      expect(lookups).toBe(0);
      const err = await content.admit!(submit, input).then(
        () => null,
        (e: unknown) => e,
      );
      expect(lookups).toBe(1);
      expect(err).toMatchObject({ status: 403, code: 'BLOCKED_TARGET', field: 'url' });
      expect((err as Error).message).toContain('Blocked: private address');
      expect((err as Error).message).not.toMatch(/127\.0\.0\.2|loopback/);
    } finally {
      guard.resolve = resolve;
    }
    // At run time the refusal, and the page, say nothing of the address either.
    const ran = await content.run(ctx, content.input.parse({ url: `http://${canaryName()}/` })).catch((e: unknown) => e);
    expect(ran).toBeInstanceOf(BlockedTargetError);
    expect((ran as Error).message).not.toMatch(/127\.0\.0\.2|loopback/);
    // The proxy's own refusal (what a frame of the page would render) is generic too.
    const { proxy } = await h.base.use(browserPoolService);
    const auth = Buffer.from(`${proxy.credentials.username}:${proxy.credentials.password}`).toString('base64');
    const refusal = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port: proxy.port, path: `http://${canaryName()}/`, headers: { 'Proxy-Authorization': `Basic ${auth}` } },
        (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(refusal.status).toBe(403);
    expect(refusal.body).not.toMatch(/127\.0\.0\.2|loopback|resolves/);
    expect(canary.connections).toBe(0);
  });

  it('refuses a blocked page at run time too (no precheck), and a redirect to one', async () => {
    const ctx = h.context();
    const direct = await content.run(ctx, content.input.parse({ url: `http://${canaryName()}/` })).catch((e: unknown) => e);
    expect(direct).toBeInstanceOf(BlockedTargetError);
    const viaRedirect = await h.run(content, { url: h.siteUrl(`/redirect-to?url=${encodeURIComponent(`http://${canaryName()}/`)}`) }).catch((e: unknown) => e);
    expect(viaRedirect).toBeInstanceOf(BlockedTargetError);
    expect((viaRedirect as Error).message).toMatch(/blocked/i);
    const httpsRedirect = await h
      .run(content, { url: h.siteUrl(`/redirect-to?url=${encodeURIComponent(`https://${canaryName()}/`)}`) })
      .catch((e: unknown) => e);
    expect(httpsRedirect).toBeInstanceOf(BlockedTargetError);
    expect(canary.connections).toBe(0);
  });

  it('fails the task when a script sends the page to a blocked address, instead of rendering the refusal', async () => {
    const html = `<p>start</p><script>location.href = 'http://${canaryName()}/';</script>`;
    const err = await h.run(screenshot, { html, wait: 'idle', width: 200, height: 100 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockedTargetError);
    expect((err as Error).message).not.toMatch(/127\.0\.0\.2|loopback/);
    expect(canary.connections).toBe(0);
  });

  it('never lets a page reach the proxy itself, even with loopback allowed', async () => {
    const { proxy } = await h.base.use(browserPoolService);
    const self = `http://127.0.0.1:${proxy.port}/`;
    const err = await h.run(content, { url: self }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockedTargetError);
    expect((err as Error).message).toMatch(/proxy itself/);
    // A request straight to the proxy (not proxied) is not served either.
    const res = await fetch(self);
    expect(res.status).toBe(400);
  });

  it('is no open proxy for other local processes: without its credential, 407 and no upstream connection', async () => {
    const { proxy } = await h.base.use(browserPoolService);
    // An allowed target (127.0.0.1 is allowlisted here), so only the missing credential can stop it.
    const upstream = await startLocalServer();
    try {
      const rawRequest = (text: string) =>
        new Promise<string>((resolve, reject) => {
          const socket = net.connect(proxy.port, '127.0.0.1', () => socket.write(text));
          let got = '';
          socket.on('data', (d: Buffer) => (got += d.toString('latin1')));
          socket.on('end', () => resolve(got));
          socket.on('close', () => resolve(got));
          socket.on('error', reject);
          socket.setTimeout(10_000, () => socket.destroy());
        });
      const target = `127.0.0.1:${upstream.port}`;
      const connect = await rawRequest(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
      expect(connect).toMatch(/^HTTP\/1\.1 407 /);
      expect(connect).toMatch(/proxy-authenticate: basic/i);
      const wrong = await rawRequest(
        `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: Basic ${Buffer.from('agent-utility:guess').toString('base64')}\r\n\r\n`,
      );
      expect(wrong).toMatch(/^HTTP\/1\.1 407 /);
      const get = await rawRequest(`GET http://${target}/ HTTP/1.1\r\nHost: ${target}\r\nConnection: close\r\n\r\n`);
      expect(get).toMatch(/^HTTP\/1\.1 407 /);
      expect(upstream.connections).toBe(0);
      // Control: with the credential the same request goes through, so the 407s above were the credential.
      const auth = Buffer.from(`${proxy.credentials.username}:${proxy.credentials.password}`).toString('base64');
      const ok = await rawRequest(`GET http://${target}/ HTTP/1.1\r\nHost: ${target}\r\nProxy-Authorization: Basic ${auth}\r\nConnection: close\r\n\r\n`);
      expect(ok).toMatch(/^HTTP\/1\.1 200 /);
      expect(upstream.connections).toBe(1);
    } finally {
      await upstream.close();
    }
  });

  it('does not load file: URLs from a page', async () => {
    // A file of our own with content no page could contain by chance, so the check below always bites.
    const secret = `local-file-secret-${randomUUID()}`;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'file-tricks-'));
    const file = path.join(dir, 'secret.txt');
    fs.writeFileSync(file, secret);
    const out = await h.run(content, { url: h.siteUrl(`/file-tricks?file=${encodeURIComponent(file)}`), wait: 'idle' });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(out.title).toBe('File tricks');
    expect(out.html).toContain('secret.txt');
    expect(out.html).not.toContain(secret);
    expect(reported(out.html)).toBe('page');
  });

  it('blocks service workers', async () => {
    const out = await h.run(content, { url: h.siteUrl('/sw'), wait: 'idle' });
    expect(reported(out.html)).toMatch(/^sw (refused|unavailable)$/);
  });
});

describe('isolation between tasks', () => {
  it('starts every task without the cookies or storage of the one before', async () => {
    const first = await h.run(content, { url: h.siteUrl('/set-state') });
    // Within the task the state exists (so the check below can fail)...
    expect(first.html).toContain('js_cookie=secret-js');
    expect(first.html).toContain('header_cookie=secret-header');
    expect(first.html).toContain('ls=secret-ls');
    // ...and the next task on the same origin sees none of it.
    const second = await h.run(content, { url: h.siteUrl('/show-state') });
    expect(second.html).toContain('server-saw=[]');
    expect(second.html).toContain('cookies=[] ls=[null] ss=[null]');
  });
});

describe('cancellation', () => {
  it('closes the page of a cancelled task at once and frees its slot', async () => {
    const { pool } = await h.base.use(browserPoolService);
    const ctx = h.context();
    const running = h.run(content, { url: h.siteUrl('/slow?id=cancel'), wait: 'load' }, ctx);
    await h.fixture.held('cancel');
    ctx.abort(new Error('cancelled by the caller'));
    await expect(running).rejects.toThrow('cancelled by the caller');
    expect(pool.stats().active).toBe(0);
    h.fixture.release('cancel');
    const after = await h.run(content, { url: h.siteUrl('/article') });
    expect(after.title).toBe('Growing Tomatoes at Home');
  });
});

describe('control: with 127.0.0.0/8 allowed the same probes reach the canary', () => {
  let open: BrowserHarness;
  let canary2: LocalServer;
  beforeAll(async () => {
    canary2 = await startLocalServer({ host: '127.0.0.2' });
    open = await startBrowserHarness({ env: { NETWORK_ALLOWLIST: '127.0.0.0/8', BROWSER_CONCURRENCY: '2' } });
  });
  afterAll(async () => {
    await open?.close();
    await canary2?.close();
  });

  it('sees the sub-resource and iframe requests', async () => {
    await open.run(content, { url: open.siteUrl(`/probe?target=http://canary.fixture.test:${canary2.port}`), wait: 'idle' });
    const paths = canary2.requests.map((r) => r.url);
    expect(paths).toContain('/img.png');
    expect(paths).toContain('/frame');
    expect(canary2.requests.find((r) => r.url === '/img.png')?.host).toBe(`canary.fixture.test:${canary2.port}`);
  });
});
