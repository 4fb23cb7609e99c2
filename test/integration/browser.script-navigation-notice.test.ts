// Pages that leave the article for a short generic notice after load: a meta refresh (0 s, and 1 s with a
// delay that lets it fire before the read), a script's location.replace, a script that swaps the body.
// browser.markdown must return the article from the HTML the server sent for the page opened, however fast
// the notice replaced it: that HTML is read from the response before the next navigation may commit (the
// browser drops a response's body once its document is gone), so which of the two wins is not a race.
// Each case runs several times: a race shows up as an occasional notice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import markdown from '../../tools/browser.markdown.js';
import { startBrowserHarness, type BrowserHarness } from '../support/browser-harness.js';
import { NAV_ARTICLE_TEXT, NAV_NOTICE_TEXT } from '../support/navigating-pages.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(async () => {
  await h?.close();
});

const RUNS = 5;

const CASES: { path: string; delay_ms?: number }[] = [
  { path: '/nav/refresh-0-to-notice' },
  { path: '/nav/refresh-0-to-notice', delay_ms: 300 },
  { path: '/nav/refresh-1-to-notice', delay_ms: 1_500 },
  { path: '/nav/replace-to-notice' },
  { path: '/nav/replace-to-notice', delay_ms: 300 },
  { path: '/nav/swap-to-notice' },
];

describe.each(CASES)('browser.markdown of a page that turns into a short notice after load: $path, delay $delay_ms', ({ path, delay_ms }) => {
  it.each(Array.from({ length: RUNS }, (_, i) => i + 1))('returns the article, not the notice (run %i)', async () => {
    const out = await h.run(markdown, { url: h.siteUrl(path), ...(delay_ms !== undefined ? { delay_ms } : {}) });
    expect(out.markdown).not.toContain(NAV_NOTICE_TEXT);
    expect(out.markdown).toContain(NAV_ARTICLE_TEXT);
    expect(out.markdown).toContain('Night 400');
    // The article is the page opened's, whichever copy of it was read.
    expect(out.final_url).toBe(h.siteUrl(path));
    expect(out.status_code).toBe(200);
    // With a delay the notice is what the tab shows by the time it is read: the server's HTML won.
    if (delay_ms !== undefined || path === '/nav/swap-to-notice') expect(out.source).toBe('server');
  });
});
