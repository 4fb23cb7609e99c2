// browser.markdown's body and fields: the Markdown is the article body alone, and what agents ask about the
// page (author, date, language, site, summary, length) comes as fields, read from the page's JSON-LD and
// meta tags first and from Readability's reading of the text where the page declares nothing.
import { describe, expect, it } from 'vitest';
import { parseHTML } from 'linkedom';
import type { El } from '../../src/extract/dom.js';
import { htmlToMarkdown } from '../../src/extract/markdown.js';
import { wordCount } from '../../src/extract/metadata.js';
import { paragraphs } from '../../src/extract/prose-container.js';
import { belowFloor } from '../../src/extract/readability-floor.js';
import { ORCHARD_PROSE as PROSE } from '../support/markdown-pages.js';

const BODY = [0, 1].map(() => PROSE.map((p) => `<p>${p}</p>`).join('')).join('');

describe('metadata fields', () => {
  it('reads JSON-LD and OpenGraph, and keeps them out of the body', () => {
    const ld = JSON.stringify({
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'WebSite', name: 'x' },
        { '@type': 'NewsArticle', headline: 'The hill orchard', author: [{ '@type': 'Person', name: 'Ann Lee' }], datePublished: '2024-05-04T09:30:00+02:00' },
      ],
    });
    const html = `<html lang="en-GB"><head><title>The hill orchard | Orchard News</title><meta property="og:site_name" content="Orchard News"><meta name="description" content="Seventy years of apples on the hill."><script type="application/ld+json">${ld}</script></head><body><article><h1>The hill orchard</h1><p class="byline">By Ann Lee, 4 May 2024</p>${BODY}</article></body></html>`;
    const r = htmlToMarkdown(html, 'The hill orchard | Orchard News');
    expect(r).toMatchObject({
      title: 'The hill orchard | Orchard News',
      byline: 'Ann Lee',
      published_at: '2024-05-04T07:30:00.000Z',
      lang: 'en-GB',
      site_name: 'Orchard News',
      excerpt: 'Seventy years of apples on the hill.',
    });
    expect(r.markdown).not.toMatch(/^# /);
    expect(r.markdown).not.toContain('By Ann Lee');
    expect(r.markdown).not.toContain('Seventy years');
    expect(r.markdown.startsWith(PROSE[0]!)).toBe(true);
    expect(r.word_count).toBe(wordCount(r.markdown));
    expect(r.word_count).toBeGreaterThan(100);
  });

  it('reads JSON-LD wrapped in a CDATA section', () => {
    const ld = JSON.stringify({ '@type': 'Article', author: { '@type': 'Organization', name: 'Orchard Cooperative' }, datePublished: '2003-02-28T21:51:08Z' });
    const html = `<html><head><title>The hill orchard</title></head><body><script type="application/ld+json">\n  <![CDATA[\n  ${ld}\n  ]]>\n</script><article>${BODY}</article></body></html>`;
    expect(htmlToMarkdown(html, 'The hill orchard')).toMatchObject({ byline: 'Orchard Cooperative', published_at: '2003-02-28T21:51:08.000Z' });
  });

  it('reads Dublin Core and analytics-vendor meta names where OpenGraph says nothing', () => {
    const html = `<html><head><title>The hill orchard</title><meta name="parsely-author" content="Ann Lee"><meta name="parsely-pub-date" content="2024-04-20T04:20:00.000Z"><meta property="dc:publisher" content="Orchard News"><meta property="dc:description" content="Seventy years of apples on the hill."></head><body><article>${BODY}</article></body></html>`;
    expect(htmlToMarkdown(html, 'The hill orchard')).toMatchObject({
      byline: 'Ann Lee',
      published_at: '2024-04-20T04:20:00.000Z',
      site_name: 'Orchard News',
      excerpt: 'Seventy years of apples on the hill.',
    });
  });

  it("falls back to Readability's byline and the page's <time> when the page declares no author or date", () => {
    const html = `<html><head><title>The hill orchard</title></head><body><article><h1>The hill orchard</h1><p class="byline">Ann Lee</p><time datetime="2024-05-04">4 May</time>${BODY}</article></body></html>`;
    const r = htmlToMarkdown(html, 'The hill orchard');
    expect(r.byline).toBe('Ann Lee');
    expect(r.published_at).toBe('2024-05-04');
    expect(r.lang).toBe('');
  });

  it('counts words of text, not of link targets, and each CJK character as a word', () => {
    expect(wordCount('Two [words](https://example.com/a/b/c/d)')).toBe(2);
    expect(wordCount('## Heading here\n\n- one\n- two')).toBe(4);
    expect(wordCount('果樹園')).toBe(3);
  });

  it('counts words as the matches of the word pattern it replaced, in any script', () => {
    // The pattern the scan replaced: a CJK character alone, or a letter or digit and what continues it.
    const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}][\p{L}\p{M}\p{N}'’.-]*/gu;
    const byPattern = (md: string) =>
      md
        .replace(/\]\([^)]*\)/g, ']')
        .replace(/[#*_`>|[\]!-]+/g, ' ')
        .match(WORD)?.length ?? 0;
    // Latin with marks, CJK (and a Han radical that is no letter), digits, apostrophes, astral letters and
    // digits, an emoji, lone surrogates, Markdown.
    const parts = [
      'a',
      'Zé',
      'e\u0301',
      '\u0301',
      '果',
      '樹園',
      'ひら',
      'カタ',
      'ー',
      '\u2e80',
      '々',
      '〇',
      '7',
      "'",
      '’',
      '.',
      '-',
      ' ',
      '\n',
      '𝐀',
      '𝟙',
      '😀',
      '\ud835',
      '\udc00',
      '[x](y)',
      '**',
      '#',
      '_',
      '`',
      '>',
      '|',
      '!',
      ']',
      '(',
    ];
    let seed = 11;
    const pick = () => parts[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % parts.length]!;
    for (let i = 0; i < 3000; i++) {
      let md = '';
      for (let k = 0; k < i % 17; k++) md += pick();
      expect(wordCount(md), JSON.stringify(md)).toBe(byPattern(md));
    }
  });
});

describe('Markdown that keeps the text as written', () => {
  it("escapes a literal '1)' at the start of a paragraph and leaves underscores inside words alone", () => {
    const html = `<html><body><article>${BODY}<p>1) Prune in February, when the sap is low.</p><p>The setting is called max_tree_height in the file.</p></article></body></html>`;
    const { markdown } = htmlToMarkdown(html, 'Orchard');
    expect(markdown).toContain('1\\) Prune in February');
    expect(markdown).toContain('max_tree_height');
  });
});

describe('link text', () => {
  it('counts a paragraph inside a link (a teaser card) as link text, not prose', () => {
    const blurb = 'The cooperative grafted old local varieties onto young rootstock this spring so that none are lost.';
    const root = parseHTML(`<html><body><div><a href="/story"><h3>Grafting day</h3><p>${blurb}</p></a></div><p>${PROSE[0]}</p></body></html>`).document
      .body as unknown as El;
    const paras = paragraphs(root);
    expect(paras.find((p) => p.text === blurb)?.weight).toBeLessThan(0);
    expect(paras.find((p) => p.text === PROSE[0])?.weight).toBeGreaterThan(0);
  });
});

describe('the Readability floor', () => {
  const doc = parseHTML(
    `<html><body><div id="pick">${BODY}</div><div id="rail"><p>${'A rail of other stories, each with a blurb long enough to read as prose. '.repeat(8)}</p></div></body></html>`,
  ).document;
  const pick = doc.getElementById('pick') as unknown as El;
  const rail = doc.getElementById('rail') as unknown as El;

  it('holds when an override keeps another block', () => {
    expect(belowFloor(pick, rail)).toBe(true);
  });

  it('does not hold when what is kept holds the pick', () => {
    expect(belowFloor(pick, pick)).toBe(false);
    expect(belowFloor(pick, doc.body as unknown as El)).toBe(false);
  });
});
