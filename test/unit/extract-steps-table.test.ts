// The steps table (EXTRACT_STEPS and NOISE_RULES in src/extract/, run by steps.ts): every pass of an
// extraction has a name `off` switches off and leaves its mark in the `debug` trace, removals by the block
// removed and decisions by what they chose. Crafted pages show that switching a step off changes the result.
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown, RULE_NAMES } from '../../src/extract/markdown.js';

const prose = (label: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<p>${label} ${i + 1} tells how the river was measured at dawn, with enough words and commas, clauses and detail to read as prose of its own.</p>`,
  ).join('');

const NOISY = `<html><head><title>River</title></head><body>
<a href="#main">Skip to content</a>
<noscript>Please enable JavaScript to view this site.</noscript>
<div class="cookie-banner">We use cookies to count visits.</div>
<form action="/search"><p>Search the archive</p></form>
<button>Open the menu</button>
<img src="https://example.org/pixel.gif" width="1" height="1" alt="">
<main id="main"><h1>River</h1>${prose('Paragraph', 4)}
<figure><img src="https://example.org/river.jpg" alt="The river"><figcaption>The river at dawn. Foto: Jane Doe/dpa</figcaption></figure></main>
</body></html>`;

/** An article in a block named like a sign-up box: the page's own pruning takes it, Readability's pick keeps it. */
const FLOOR = `<html><head><title>Levels</title></head><body><div class="newsletter">${prose('Report', 6)}</div>
${Array.from({ length: 300 }, (_, i) => `<div>Item ${i}</div>`).join('')}</body></html>`;

/** A post whose content is a list of bookmarked links: pruning by link density empties the page. */
const LINKS = `<html><body><nav><a href="/">Home</a> <a href="/about">About this blog</a></nav><main><article><h1>Links of the day</h1><div class="entry-content"><ul class="linkroll">${Array.from(
  { length: 8 },
  (_, i) =>
    `<li><p><a href="https://news.example/${i}">Bookmarked story number ${i + 1} about the press</a></p><p>via <a href="https://news.example/">news.example</a></p></li>`,
).join('')}</ul><p>Posted from a bookmarking service.</p></div></article></main></body></html>`;

/** A recipe of boxes of one kind: Readability keeps the method, the header and ingredient boxes are put back. */
const BOXES = `<html><head><title>Mandarin cake</title></head><body><main class="container">
<article class="box box-header"><h1>Mandarin cake</h1><p>The creamiest cake of the summer.</p></article>
<article class="box box-ingredients"><h2>Ingredients</h2><table><tr><td>125 g</td><td>flour</td></tr><tr><td>65 g</td><td>sugar</td></tr></table></article>
<article class="box box-method"><h2>Method</h2>${prose('Step', 6)}</article></main></body></html>`;

/** A standfirst in the article's header, between the H1 and the body Readability keeps. */
const LEAD = 'Rain, storms and snow are forecast for the central regions today, while the north stays dry.';
const STANDFIRST = `<html><head><title>Polar front</title></head><body><div class="wrapper"><header class="entry-header"><h1>Polar front</h1><p class="subtitle">${LEAD}</p></header>
<div class="related-box"><a href="/a">Floods in the valley last spring and what the towns learned from them</a></div><div class="entry-body">${prose('Paragraph', 6)}</div></div></body></html>`;

/**
 * A ticker of updates in blocks named "comment": pruning by names empties the pick and the page, so the pick is
 * pruned again without names, and its "read the story" pointer must still go by its links.
 */
const TICKER = `<html><head><title>Flood ticker</title></head><body><div class="ticker">${Array.from(
  { length: 14 },
  (_, i) =>
    `<div class="comment"><p class="time">10:${i + 10}</p><p>Update ${i + 1}: the river gauge at the old bridge read higher again this hour, and the crews moved the sandbags further up the bank, where the water had reached the path by noon.</p></div>`,
).join('')}<p><a href="https://news.example/other">Read the story about the harbour</a></p></div></body></html>`;

describe('extraction steps table', () => {
  it('names every pass, and accepts each name in off', () => {
    for (const name of [
      'skip-links',
      'noscript',
      'machinery',
      'tracking-pixels',
      'small-forms',
      'cookie-banners',
      'readability-pick',
      'prune-page',
      'link-lists-page',
      'prune-pick',
      'pick-without-names',
      'pick-by-links',
      'pick-or-page',
      'densest-prose',
      'standfirst',
      'section-headings',
      'sibling-boxes',
      'readability-floor',
      'credits',
      'names-and-roles',
      'empty-tail',
    ])
      expect(RULE_NAMES).toContain(name);
    expect(new Set(RULE_NAMES).size).toBe(RULE_NAMES.length);
    for (const name of RULE_NAMES) expect(() => htmlToMarkdown(NOISY, 'River', 'main', { off: [name] }), name).not.toThrow();
  });

  it('traces each noise rule, and switching one off keeps what it removes', () => {
    const { trace, markdown } = htmlToMarkdown(NOISY, 'River', 'full', { debug: true });
    const removedBy = (rule: string) => trace?.filter((t) => t.rule === rule).map((t) => `${t.tag}:${t.text}`) ?? [];
    expect(removedBy('skip-links')).toEqual(['a:Skip to content']);
    expect(removedBy('noscript')).toEqual(['noscript:Please enable JavaScript to view this site.']);
    expect(removedBy('machinery')).toEqual(['button:Open the menu']);
    expect(removedBy('tracking-pixels')).toEqual(['img:']);
    expect(removedBy('small-forms')).toEqual(['form:Search the archive']);
    expect(removedBy('cookie-banners')).toEqual(['div:We use cookies to count visits.']);
    for (const text of ['Skip to content', 'enable JavaScript', 'Open the menu', 'pixel.gif', 'Search the archive', 'We use cookies'])
      expect(markdown).not.toContain(text);
    const off = (rule: string) => htmlToMarkdown(NOISY, 'River', 'full', { off: [rule] }).markdown;
    expect(off('skip-links')).toContain('Skip to content');
    expect(off('noscript')).toContain('enable JavaScript');
    expect(off('tracking-pixels')).toContain('pixel.gif');
    expect(off('small-forms')).toContain('Search the archive');
    expect(off('cookie-banners')).toContain('We use cookies');
  });

  it('traces the credit cut from a caption, and keeps it when credits is off', () => {
    const { markdown, trace } = htmlToMarkdown(NOISY, 'River', 'full', { debug: true });
    expect(markdown).toContain('The river at dawn.');
    expect(markdown).not.toContain('Jane Doe');
    expect(trace).toContainEqual(expect.objectContaining({ rule: 'credits', tag: 'figcaption', text: 'Foto: Jane Doe/dpa' }));
    expect(htmlToMarkdown(NOISY, 'River', 'full', { off: ['credits'] }).markdown).toContain('Foto: Jane Doe/dpa');
  });

  it('traces the decisions: the pick read, and the pick chosen over the page', () => {
    const { trace, source } = htmlToMarkdown(NOISY, 'River', 'main', { debug: true });
    expect(source).toBe('article');
    expect(trace).toContainEqual(expect.objectContaining({ rule: 'readability-pick', tree: 'article', chose: 'pick' }));
    expect(trace).toContainEqual(expect.objectContaining({ rule: 'pick-or-page', tree: 'article', chose: 'article' }));
    // Off, the page is kept: with the noise gone, it still holds the article.
    const page = htmlToMarkdown(NOISY, 'River', 'main', { off: ['pick-or-page'] });
    expect(page.source).toBe('page');
  });

  it("restores Readability's pick when the page kept lost it, unless the floor is off", () => {
    expect(htmlToMarkdown(FLOOR, 'Levels').source).toBe('article');
    const floored = htmlToMarkdown(FLOOR, 'Levels', 'main', { off: ['pick-or-page'], debug: true });
    expect(floored.source).toBe('readability');
    expect(floored.markdown).toContain('Report 6 tells how');
    expect(floored.trace).toContainEqual(expect.objectContaining({ rule: 'readability-floor', chose: 'readability' }));
    const without = htmlToMarkdown(FLOOR, 'Levels', 'main', { off: ['pick-or-page', 'readability-floor'] });
    expect(without.source).toBe('page');
    expect(without.markdown).not.toContain('Report 6 tells how');
  });

  it('traces the page kept with its link lists, and loses them when link-lists-page is off', () => {
    const kept = htmlToMarkdown(LINKS, 'Links of the day', 'main', { debug: true });
    expect(kept.markdown).toContain('Bookmarked story number 8');
    expect(kept.trace).toContainEqual(expect.objectContaining({ rule: 'link-lists-page', chose: 'page with its link lists' }));
    expect(htmlToMarkdown(LINKS, 'Links of the day', 'main', { off: ['link-lists-page'] }).markdown).not.toContain('Bookmarked story number 8');
  });

  it('traces the sibling boxes put back, and leaves them out when sibling-boxes is off', () => {
    const joined = htmlToMarkdown(BOXES, 'Mandarin cake', 'main', { debug: true });
    expect(joined.markdown).toContain('The creamiest cake of the summer.');
    expect(joined.trace).toContainEqual(expect.objectContaining({ rule: 'sibling-boxes', chose: 'pick with its sibling boxes' }));
    expect(htmlToMarkdown(BOXES, 'Mandarin cake', 'main', { off: ['sibling-boxes'] }).markdown).not.toContain('The creamiest cake');
  });

  it('traces the standfirst given as the excerpt, and finds none when standfirst is off', () => {
    const found = htmlToMarkdown(STANDFIRST, 'Polar front', 'main', { debug: true });
    expect(found.excerpt).toBe(LEAD);
    expect(found.trace).toContainEqual({ rule: 'standfirst', tree: 'page', tag: 'p', text: LEAD, chose: 'excerpt' });
    expect(htmlToMarkdown(STANDFIRST, 'Polar front', 'main', { off: ['standfirst'] }).excerpt).not.toBe(LEAD);
  });

  it('prunes the pick without names by links and text as a tree in its own right (its blocks count as in the page)', () => {
    const { markdown, trace } = htmlToMarkdown(TICKER, 'Flood ticker', 'main', { debug: true });
    expect(trace).toContainEqual(expect.objectContaining({ rule: 'pick-without-names', chose: 'pick pruned without names' }));
    expect(markdown).toContain('Update 14: the river gauge');
    // The pointer is removed twice: from the pick pruned with names, then from the copy pruned without them.
    expect(trace?.filter((t) => t.rule === 'link-dense' && t.tree === 'article').map((t) => t.text)).toEqual([
      'Read the story about the harbour',
      'Read the story about the harbour',
    ]);
    expect(markdown).not.toContain('Read the story about the harbour');
  });

  it('names the field for an unknown name', () => {
    expect(() => htmlToMarkdown(NOISY, 'River', 'main', { off: ['noise'] })).toThrow(/^off: no extraction rule named "noise" \(rules: skip-links, /);
  });
});
