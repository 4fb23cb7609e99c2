import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { makeLinksAbsolute } from '../../src/extract/absolute-links.js';
import { htmlToMarkdown } from '../../src/extract/markdown.js';

describe('makeLinksAbsolute', () => {
  const doc = (html: string) => parseHTML(`<html><head></head><body>${html}</body></html>`).document;

  it('resolves links and images against the page, drops javascript: links and srcset', () => {
    const d = doc('<a href="b/c?x=1#f">a</a><a href="javascript:void(0)">j</a><img src="/i.png" srcset="i2.png 2x"><a href="//cdn.test/z">z</a>');
    makeLinksAbsolute(d, 'https://site.test/dir/page.html');
    const links = Array.from(d.querySelectorAll('a')).map((a) => a.getAttribute('href'));
    expect(links).toEqual(['https://site.test/dir/b/c?x=1#f', null, 'https://cdn.test/z']);
    expect(d.querySelector('img')?.getAttribute('src')).toBe('https://site.test/i.png');
    expect(d.querySelector('img')?.hasAttribute('srcset')).toBe(false);
  });

  it('honours the document’s own <base href>', () => {
    const d = parseHTML('<html><head><base href="/docs/v2/"></head><body><a href="intro">i</a></body></html>').document;
    makeLinksAbsolute(d, 'https://site.test/other/page');
    expect(d.querySelector('a')?.getAttribute('href')).toBe('https://site.test/docs/v2/intro');
  });

  it('makes the Markdown links of server HTML absolute when given the page URL', () => {
    const prose = 'The old apple trees are pruned in the cold months when the sap is down. '.repeat(6);
    const html = `<article><h1>Orchard</h1><p>${prose}</p><p>See <a href="guide">the guide</a>.</p></article>`;
    expect(htmlToMarkdown(html, 'Orchard', 'main', { baseUrl: 'https://site.test/a/b' }).markdown).toContain('[the guide](https://site.test/a/guide)');
    expect(htmlToMarkdown(html, 'Orchard', 'main').markdown).toContain('[the guide](guide)');
  });
});
