// /docs in a real headless Chromium: the interactive reference loads from local assets (no CDN) and
// lists the tools.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { startTestService, type TestService } from '../support/service.js';
import { findChromium } from '../support/chromium.js';

let svc: TestService;
let browser: Browser;

beforeAll(async () => {
  svc = await startTestService();
  browser = await chromium.launch({
    executablePath: findChromium(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
});
afterAll(async () => {
  await browser?.close();
  await svc?.close();
});

describe('/docs', () => {
  it('renders the API reference from /openapi.json and lists the tools, loading nothing off the machine', async () => {
    const page = await browser.newPage();
    const foreign: string[] = [];
    page.on('request', (r) => {
      const u = new URL(r.url());
      if (u.origin !== svc.url && u.protocol !== 'data:') foreign.push(r.url());
    });
    await page.goto(`${svc.url}/docs`);
    await page.getByText('/v1/tools/dns.lookup/tasks').first().waitFor({ timeout: 20_000 });
    const text = await page.locator('#swagger-ui').innerText();
    expect(text).toContain('agent-utility');
    expect(text).toContain('/v1/tasks/{task_id}');
    expect(foreign).toEqual([]);
    await page.close();
  });
});
