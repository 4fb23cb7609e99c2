// Pages that navigate while the work before capture is in flight: a click whose page leaves a moment later
// (the step after it is running), a scroll that sends the page elsewhere (scroll_to_load is waiting for
// frames), a blank page that navigates while the screenshot's blank check waits for it to draw. Each task
// completes with the final page's content instead of failing with "Execution context was destroyed".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import markdown from '../../tools/browser.markdown.js';
import screenshot from '../../tools/browser.screenshot.js';
import { startBrowserHarness, type BrowserHarness } from '../support/browser-harness.js';
import { NAV_ARTICLE_TEXT } from '../support/navigating-pages.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(async () => {
  await h?.close();
});

const RUNS = [1, 2, 3];

describe('a navigation during the actions, scrolling or blank check', () => {
  it.each(RUNS)('a click whose page navigates while the next step runs: the final page is read (run %i)', async () => {
    const out = await h.run(markdown, {
      url: h.siteUrl('/nav/click-navigates'),
      actions: [
        { type: 'click', selector: '#go' },
        // In flight when the article commits: its value never comes back.
        { type: 'evaluate', expression: 'new Promise((resolve) => setTimeout(() => resolve(document.title), 1500))' },
        { type: 'scroll', amount: 200 },
      ],
      scroll_to_load: true,
    });
    expect(out.markdown).toContain(NAV_ARTICLE_TEXT);
    expect(out.final_url).toBe(h.siteUrl('/nav/article?from=click'));
    expect(out.actions?.map((a) => [a.type, a.ok])).toEqual([
      ['click', true],
      ['evaluate', true],
      ['scroll', true],
    ]);
    expect(out.actions?.[1]?.result).toBeNull();
  });

  it.each(RUNS)('scrolling that makes the page navigate ends on the final page (run %i)', async () => {
    const out = await h.run(markdown, { url: h.siteUrl('/nav/scroll-navigates'), scroll_to_load: true });
    expect(out.markdown).toContain(NAV_ARTICLE_TEXT);
    expect(out.markdown).toContain('Night 400');
    expect(out.final_url).toBe(h.siteUrl('/nav/article?from=scroll'));
  });

  it.each(RUNS)('a blank page that navigates during the blank check is captured as the page it went to (run %i)', async () => {
    const out = await h.run(screenshot, { url: h.siteUrl('/nav/blank-navigates') });
    expect(out.blank).toBe(false);
  });
});
