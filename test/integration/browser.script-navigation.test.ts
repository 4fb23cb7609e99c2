// Pages whose scripts navigate after load (location.href, location.replace, location.reload in a loop, a
// chain of hops, a form submitted, a router's pushState then a navigation, a meta refresh, a navigation the
// network guard refuses): every tool that reads the DOM completes with the article the page showed, instead
// of failing with "Execution context was destroyed". Each page and each page it navigates to shows the same
// article, so these tests do not depend on which of them is read; a navigation that the network guard
// refuses must leave the article, not the refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import content from '../../tools/browser.content.js';
import links from '../../tools/browser.links.js';
import markdown from '../../tools/browser.markdown.js';
import scrape from '../../tools/browser.scrape.js';
import { startBrowserHarness, type BrowserHarness } from '../support/browser-harness.js';
import { NAV_ARTICLE_TEXT, NAV_LINK_PATH } from '../support/navigating-pages.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(async () => {
  await h?.close();
});

const PAGES = [
  '/nav/href-after-load',
  '/nav/replace-in-load',
  '/nav/reload-loop',
  '/nav/hops',
  '/nav/form-submit',
  '/nav/history-then-href',
  '/nav/meta-refresh',
  '/nav/blocked-after-load',
];

describe.each(PAGES)('a page whose script navigates after load: %s', (path) => {
  it('browser.markdown returns the article', async () => {
    const out = await h.run(markdown, { url: h.siteUrl(path) });
    expect(out.markdown).toContain(NAV_ARTICLE_TEXT);
    expect(out.markdown).toContain('Night 400');
    expect(out.final_url).toMatch(/^http:\/\/site\.fixture\.test:\d+\/nav\//);
  });

  it('browser.content returns the rendered article', async () => {
    const out = await h.run(content, { url: h.siteUrl(path) });
    expect(out.html).toContain(NAV_ARTICLE_TEXT);
    expect(out.html).toContain('Night 400');
    expect(out.title).not.toBe('');
  });

  it("browser.links lists the article's links, resolved against the page", async () => {
    const out = await h.run(links, { url: h.siteUrl(path) });
    expect(out.links.map((l) => l.url)).toContain(h.siteUrl(NAV_LINK_PATH));
  });

  it('browser.scrape reads the article', async () => {
    const out = await h.run(scrape, { url: h.siteUrl(path), select: { heading: 'h1', nights: { selector: 'article p', all: true } } });
    expect(out.heading).toBe('The lighthouse at the end of the pier');
    expect(out.nights).toHaveLength(401);
  });
});

describe('a navigation after load that the network guard refuses', () => {
  it('leaves the page opened, read from its kept copy (final_url and status are its own)', async () => {
    const out = await h.run(content, { url: h.siteUrl('/nav/blocked-after-load') });
    expect(out.html).toContain(NAV_ARTICLE_TEXT);
    expect(out.final_url).toBe(h.siteUrl('/nav/blocked-after-load'));
    expect(out.status_code).toBe(200);
  });
});
