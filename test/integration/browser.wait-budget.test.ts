// What an agent reads when wait_for gives up: the whole time the page was waited for and the budget that
// bounded it (timeout_ms), not only the selector's leftover share ("within 1.1 s" for timeout_ms 3000).
import { afterAll, beforeAll, expect, it } from 'vitest';
import content from '../../tools/browser.content.js';
import { startBrowserHarness, type BrowserHarness } from '../support/browser-harness.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
  // The budget starts when the task does, before the pool has a browser: a cold Chromium launch (seconds
  // on a loaded machine) would come out of the 8 s and could leave the navigation none of it, failing
  // with another error. A first task launches it, so the measured one spends its budget on the page alone.
  await h.run(content, { url: h.siteUrl('/controls/echo?warm') });
}, 60_000);
afterAll(async () => {
  await h?.close();
});

it('names the page budget from timeout_ms when wait_for finds nothing', async () => {
  const err = (await h.run(content, { url: h.siteUrl('/controls/echo?budget'), wait_for: '#never-there', timeout_ms: 8000 }).catch((e: unknown) => e)) as Error;
  expect(err.message).toMatch(/^wait_for: no element matched "#never-there" within \d+(\.\d)? s of the page's 8 s budget \(timeout_ms/);
  const waited = Number(/within ([\d.]+) s/.exec(err.message)![1]);
  expect(waited).toBeGreaterThan(0);
  expect(waited).toBeLessThanOrEqual(8);
});
