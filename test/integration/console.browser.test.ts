// The operator console driven in Debian's Chromium through playwright-core, against the real service as
// `serve` assembles it (front doors, in-process lead service, artifact files), with Knot DNS on loopback
// answering dns.lookup. The one-time link comes from the built CLI (`agent-utility admin login`).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { startHttpServer, type RunningServer } from '../../src/http/server.js';
import { buildFrontDoors, type FrontDoors } from '../../src/server/front-doors.js';
import { createLogger } from '../../src/logger.js';
import { findChromium } from '../support/chromium.js';
import { runCli } from '../support/cli.js';
import { onFreePort } from '../support/free-port.js';
import { startKnot, type KnotServer } from '../support/knot.js';
import { testConfig } from '../support/tool-context.js';

const ADMIN_TOKEN = 'console-test-operator-token-0123456789';

let knot: KnotServer;
let doors: FrontDoors;
let rt: Runtime;
let server: RunningServer;
let browser: Browser;
let base: string;
let attacker: http.Server;
let attackerUrl: string;

async function signIn(page: Page): Promise<void> {
  await page.goto(`${base}/console/login`);
  await page.getByLabel('Operator token (ADMIN_TOKEN)').fill(ADMIN_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${base}/console`);
}

beforeAll(async () => {
  knot = await startKnot([
    { origin: 'console.test', records: ['@ 300 IN A 127.0.0.10', '@ 300 IN MX 10 mail.console.test.', 'mail 300 IN A 127.0.0.11', 'site 300 IN A 127.0.0.1'] },
  ]);
  await onFreePort(async (port) => {
    const config = testConfig({
      PORT: String(port),
      POLL_INTERVAL_MS: '50',
      ADMIN_TOKEN,
      DNS_SERVERS: knot.server,
      NETWORK_ALLOWLIST: '127.0.0.1/32',
      LEADS_PORT: '0',
      ...(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {}),
    });
    const log = createLogger(config.logLevel);
    doors = await buildFrontDoors(config, log);
    rt = await createRuntime(doors.config, { log });
    try {
      server = await startHttpServer(rt, await doors.httpOptions(rt));
    } catch (err) {
      await rt.close();
      await doors.close();
      throw err;
    }
  });
  base = server.url;
  browser = await chromium.launch({ executablePath: findChromium(), args: ['--no-sandbox'] });
  // Another origin on the same machine: its page posts a form at the console, as a hostile site would.
  attacker = http.createServer((req, res) => {
    if (req.url === '/article') {
      res.setHeader('content-type', 'text/html');
      res.end(
        '<html><head><title>Notes</title></head><body><article><h1>Console notes</h1><p>Rendered as <strong>Markdown</strong> in the playground.</p><ul><li>one</li><li>two</li></ul></article></body></html>',
      );
      return;
    }
    const target = decodeURIComponent((req.url ?? '/').slice(1));
    res.setHeader('content-type', 'text/html');
    res.end(`<form id="f" method="post" action="${target}"><input name="usd" value="1000"></form><script>document.getElementById('f').submit()</script>`);
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => attacker?.close(r));
  await server?.close();
  await rt?.close();
  await doors?.close();
  await knot?.stop();
});

describe('operator console in Chromium', () => {
  it('refuses a wrong token and keeps API keys out', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/console/keys`);
    expect(page.url()).toBe(`${base}/console/login`);
    await page.getByLabel('Operator token (ADMIN_TOKEN)').fill('not-the-operator-token');
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${base}/console/login` && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    expect(answer.status()).toBe(401);
    await expect(page.getByRole('alert').textContent()).resolves.toContain('not the operator token');
    await page.close();

    const { key } = await (async () => {
      const { createApiKey } = await import('../../src/billing/api-keys.js');
      return createApiKey(rt.store, { creditsMicros: 1_000_000 });
    })();
    const html = await fetch(`${base}/console/keys`, { headers: { authorization: `Bearer ${key}` }, redirect: 'manual' });
    expect(html.status).toBe(303);
    expect(html.headers.get('location')).toBe('/console/login');
    const api = await fetch(`${base}/console/api/overview`, { headers: { authorization: `Bearer ${key}` } });
    expect(api.status).toBe(401);
  });

  it('signs in, creates a key, runs dns.lookup, browser.screenshot, geo.locate and browser.markdown in the playground, and revokes the key', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page);
    const cookie = (await context.cookies()).find((c) => c.name === 'au_console');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/console' });
    await expect(page.locator('body[data-charts="ready"]').waitFor()).resolves.toBeUndefined();
    expect(await page.locator('#chart-created canvas').count()).toBe(1);

    // Keys: create one for the playground.
    await page.getByRole('link', { name: 'Keys' }).click();
    await page.getByLabel('Label').fill('playground');
    await page.getByLabel('Credits (USD)').fill('2');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.getByLabel('Secret').inputValue();
    expect(secret).toMatch(/^sk_/);
    const keyId = await page.locator('tr', { hasText: 'playground' }).getAttribute('data-key-id');
    expect(keyId).toMatch(/^key_/);

    // Playground: dns.lookup against Knot, form prefilled from the example.
    await page.getByRole('link', { name: 'Playground' }).click();
    await page.getByLabel('Tool').selectOption('dns.lookup');
    await expect(page.getByLabel('domain (required)').inputValue()).resolves.toBe('example.com');
    await page.getByLabel('domain (required)').fill('console.test');
    await page.getByLabel('record_type').selectOption('A');
    await page.getByLabel('Run on key').selectOption(keyId!);
    await page.getByRole('button', { name: 'Run' }).click();
    await page.locator('#pg-output[data-status="complete"]').waitFor({ timeout: 60_000 });
    await expect(page.locator('#pg-rendered').textContent()).resolves.toContain('127.0.0.10');
    // Bad input is answered with the same sentence as on REST, naming the field.
    await page.getByLabel('domain (required)').fill('');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.locator('#pg-output[data-status="error"]').waitFor();
    await expect(page.locator('#pg-status').textContent()).resolves.toMatch(/^domain: is required/);

    // browser.screenshot of an HTML document: the image is shown inline.
    await page.getByLabel('Tool').selectOption('browser.screenshot');
    await page.getByLabel('url').fill('');
    await page.getByLabel('html').fill('<html><body style="background:#0a0"><h1>console</h1></body></html>');
    await page.getByLabel('width').fill('400');
    await page.getByLabel('height').fill('300');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.locator('#pg-output[data-status="complete"] img.result-image').waitFor({ timeout: 90_000 });
    const size = await page.locator('img.result-image').evaluate(async (img: HTMLImageElement) => {
      await img.decode();
      return [img.naturalWidth, img.naturalHeight];
    });
    expect(size).toEqual([400, 300]);

    // geo.locate: the coordinates are plotted. Changing the tool clears the previous tool's result.
    await page.getByLabel('Tool').selectOption('geo.locate');
    await expect(page.locator('#pg-output').isHidden()).resolves.toBe(true);
    await expect(page.locator('#pg-rendered').textContent()).resolves.toBe('');
    await page.getByLabel('address (required)').fill('Springfield, IL');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.locator('#pg-output[data-status="complete"] figure.map svg circle.point').first().waitFor({ timeout: 60_000 });
    await expect(page.locator('figure.map figcaption').textContent()).resolves.toMatch(/39\.\d+, -89\.\d+/);
    // …on the offline country outlines, credited.
    await page.locator('figure.map svg path.base-map').waitFor({ timeout: 30_000 });
    expect((await page.locator('figure.map svg path.base-map').getAttribute('d'))!.length).toBeGreaterThan(50_000);
    await expect(page.locator('figure.map figcaption').textContent()).resolves.toMatch(/Natural Earth/);

    // browser.markdown of a page on this machine (through Knot): the Markdown is rendered as HTML.
    await page.getByLabel('Tool').selectOption('browser.markdown');
    await page.getByLabel('url').fill(`${attackerUrl.replace('127.0.0.1', 'site.console.test')}/article`);
    await page.getByRole('button', { name: 'Run' }).click();
    await page.locator('#pg-output[data-status="complete"] .markdown strong').waitFor({ timeout: 90_000 });
    await expect(page.locator('.markdown strong').textContent()).resolves.toBe('Markdown');
    expect(await page.locator('.markdown li').count()).toBe(2);
    // The pages carry their own icon, so a full browser never asks the service for /favicon.ico (a 404).
    expect(await page.locator('head link[rel="icon"][href^="data:"]').count()).toBe(1);
    // A client that asks anyway gets the icon, not a 404.
    const icon = await fetch(`${base}/favicon.ico`);
    expect([icon.status, icon.headers.get('content-type')]).toEqual([200, 'image/svg+xml; charset=utf-8']);

    // Tasks: the runs are found by payer, with their input.
    await page.goto(`${base}/console/tasks?payer=${keyId}`);
    await expect(page.locator('table tbody tr').count()).resolves.toBe(4);
    await page.goto(`${base}/console/tasks?payer=${keyId}&tool=dns.lookup`);
    await page.getByRole('link', { name: /^task_/ }).click();
    await expect(page.locator('main').textContent()).resolves.toContain('console.test');

    // Lead service: the demo directory is counted.
    await page.getByRole('link', { name: 'Lead service' }).click();
    expect(Number(await page.locator('#pros-total').textContent())).toBeGreaterThan(0);

    // Per-key usage, then revoke.
    await page.goto(`${base}/console/keys/${keyId}`);
    await expect(page.locator('main').textContent()).resolves.toContain('browser.screenshot');
    await page.getByRole('link', { name: 'Keys' }).click();
    await page
      .locator(`tr[data-key-id="${keyId}"]`)
      .getByRole('button', { name: /Revoke/ })
      .click();
    await expect(page.locator(`tr[data-key-id="${keyId}"]`).textContent()).resolves.toContain('revoked');
    expect((await rt.store.findKey(keyId!))?.revokedAt).not.toBeNull();
    const refused = await fetch(`${base}/v1/tools/dns.lookup/tasks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ domain: 'console.test' }),
    });
    expect(refused.status).toBe(401);
    await context.close();
  }, 240_000);

  it('refuses a cross-site POST and a console POST without the CSRF token', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page);
    const { createApiKey } = await import('../../src/billing/api-keys.js');
    const { row } = await createApiKey(rt.store, { creditsMicros: 1_000_000, label: 'target' });

    const attack = await context.newPage();
    const [answer] = await Promise.all([
      attack.waitForResponse((r) => r.url().startsWith(`${base}/console/keys/`)),
      attack.goto(`${attackerUrl}/${encodeURIComponent(`${base}/console/keys/${row.id}/credit`)}`),
    ]);
    expect(answer.status()).toBe(403);

    // From the console's own page but without the token (e.g. an injected script that cannot read it).
    const status = await page.evaluate(async (id) => (await fetch(`/console/keys/${id}/revoke`, { method: 'POST' })).status, row.id);
    expect(status).toBe(403);
    const after = await rt.store.findKey(row.id);
    expect(after?.balanceMicros).toBe(1_000_000);
    expect(after?.revokedAt).toBeNull();
    await context.close();
  });

  it('accepts a one-time link from `agent-utility admin login` once', async () => {
    const out = runCli(['admin', 'login'], { ADMIN_TOKEN, PUBLIC_URL: base, LOG_LEVEL: 'silent' });
    expect(out.status).toBe(0);
    const link = out.stdout.trim();
    expect(link.startsWith(`${base}/console/login/link?token=`)).toBe(true);

    const first = await browser.newContext();
    const page = await first.newPage();
    await page.goto(link);
    expect(page.url()).toBe(`${base}/console`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Overview');
    await first.close();

    const second = await browser.newContext();
    const again = await second.newPage();
    const answer = await again.goto(link);
    expect(answer?.status()).toBe(401);
    await expect(again.getByRole('alert').textContent()).resolves.toContain('already used');
    await second.close();
  });

  it('limits sign-in attempts per address', async () => {
    let status = 0;
    for (let i = 0; i < 12 && status !== 429; i++) {
      const r = await fetch(`${base}/console/login`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'token=wrong' });
      status = r.status;
    }
    expect(status).toBe(429);
  });
});
