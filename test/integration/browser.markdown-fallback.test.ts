// browser.markdown when a page script blanks the page: the fixture's article swaps in a short error notice
// at load. The rendered DOM then holds one line; the server's HTML (before any script ran) holds the article,
// and is what the tool converts, saying so in `source`. A page that is short as served stays as rendered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import markdown from '../../tools/browser.markdown.js';
import { startBrowserHarness, type BrowserHarness } from '../support/browser-harness.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('browser.markdown falls back to the server HTML', () => {
  it('returns the article a load-time script replaced with an error notice', async () => {
    const out = await h.run(markdown, { url: h.siteUrl('/controls/blanked') });
    expect(out.source).toBe('server');
    expect(out.markdown).toContain('the old apple trees are pruned in the cold months');
    expect(out.markdown).toContain('Paragraph 4');
    expect(out.markdown).not.toContain('Something went wrong');
  });

  it('keeps the rendered page when the server sent no more than it shows', async () => {
    const out = await h.run(markdown, { url: h.siteUrl('/controls/noscript') });
    expect(out.source).not.toBe('server');
    expect(out.markdown).toContain('scripted');
  });
});
