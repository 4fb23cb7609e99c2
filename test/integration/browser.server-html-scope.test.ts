// Only a tool that declares keepsServerHtml has its page's response paused until the server's HTML is read
// (src/browser/server-html.ts): the pause makes the page parse only once all of its HTML has arrived, a
// cost a rendered crawl cannot carry. The page used arrives in two parts and says whether the browser asked
// for its stylesheet while it was still arriving (it streamed) or only after (it was held): a crawl's
// rendered page and browser.content must stream, browser.markdown must be held.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import content from '../../tools/browser.content.js';
import markdown from '../../tools/browser.markdown.js';
import sitePage from '../../tools/site.page.js';
import { startBrowserHarness, type BrowserHarness } from '../support/browser-harness.js';
import { HELD_TEXT, STREAMED_TEXT } from '../support/streamed-page.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(async () => {
  await h?.close();
});

const streamedUrl = () => h.siteUrl(`/streamed/${randomUUID()}`);

describe('which tools pause the page for its server HTML', () => {
  it("a crawl's rendered page (site.page, render: true) streams in: never paused", async () => {
    const out = await h.run(sitePage, { url: streamedUrl(), render: true, formats: ['markdown'] });
    expect(out.markdown).toContain(STREAMED_TEXT);
    expect(out.markdown).not.toContain(HELD_TEXT);
  });

  it('browser.content streams in: never paused', async () => {
    const out = await h.run(content, { url: streamedUrl() });
    expect(out.html).toContain(STREAMED_TEXT);
  });

  it('browser.markdown (keepsServerHtml) is held until its HTML is read, and still reads the article', async () => {
    const out = await h.run(markdown, { url: streamedUrl() });
    expect(out.markdown).toContain(HELD_TEXT);
    expect(out.markdown).toContain('Paragraph 12 of the streamed article');
  });
});
