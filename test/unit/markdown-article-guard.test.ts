// Blocks removed by their tag or name (aside, "…sidebar…") are kept when they hold the article itself:
// schema.org's articleBody or the page's only H1. Checked on the pruning the whole-page fallback uses.
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { pruneBoilerplate } from '../../src/extract/boilerplate.js';
import type { El } from '../../src/extract/dom.js';
import { htmlToMarkdown } from '../../src/extract/markdown.js';

const PROSE = Array.from(
  { length: 5 },
  (_, i) =>
    `<p>Paragraph ${i + 1}: the jury praised the novel for its language and its courage, and the publisher said the first printing had sold out within a week of the announcement.</p>`,
).join('');
const SIDEBAR = `<aside class="sidebar"><h3>Most read</h3><p>${'Story that everybody is reading today. '.repeat(8)}</p></aside>`;
const FILLER = `<div class="more">${'<p>Other section text that is long enough to count in the page total for sure.</p>'.repeat(20)}</div>`;

function pruned(body: string): string {
  const doc = parseHTML(`<html><body>${body}</body></html>`).document;
  pruneBoilerplate(doc.body as unknown as El);
  return doc.body.textContent ?? '';
}

describe('pruneBoilerplate article guard', () => {
  it('keeps an article that a site put in an <aside>', () => {
    const text = pruned(`<main><aside class="direct-content"><article><div itemprop="articleBody">${PROSE}</div></article></aside>${SIDEBAR}</main>${FILLER}`);
    expect(text).toContain('Paragraph 5: the jury praised');
    expect(text).not.toContain('Story that everybody');
  });

  it('keeps an article inside a layout named for the sidebar it also holds', () => {
    const text = pruned(`<div class="fixed-sidebar-layout"><article><h1>Book prize for a debut novel</h1>${PROSE}</article>${SIDEBAR}</div>${FILLER}`);
    expect(text).toContain('Paragraph 5: the jury praised');
    expect(text).not.toContain('Story that everybody');
  });

  it('still removes an aside when the page has several H1s and no article body in it', () => {
    const text = pruned(`<h1>Site</h1><article><h1>Book prize</h1>${PROSE}</article><aside><h1>Ads</h1><p>${'Buy now. '.repeat(20)}</p></aside>${FILLER}`);
    expect(text).not.toContain('Buy now');
  });
});

describe('htmlToMarkdown dense-block second opinion', () => {
  it('does not let a scrap of prose overrule Readability when pruning took the article wrapper', () => {
    const story = Array.from(
      { length: 12 },
      (_, i) =>
        `<p>Part ${i + 1}: the president travels to his home region this Wednesday, his second trip to the regions since taking office, and will meet local leaders.</p>`,
    ).join('');
    const lines = Array.from({ length: 300 }, (_, i) => `<div>Item ${i}</div>`).join('');
    const html = `<html><body><section class="intro"><h4>Today</h4><p>The weather today is mild with light winds from the west in the afternoon.</p></section><div class="story-ad">${story}</div>${lines}</body></html>`;
    const { markdown } = htmlToMarkdown(html, 'President returns home');
    expect(markdown).toContain('Part 12: the president travels');
  });
});
