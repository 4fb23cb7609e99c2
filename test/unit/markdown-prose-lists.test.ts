// One definition of prose (dom.ts) decides, and two blocks that looked like furniture are the article's: a
// list of notes whose links make up most of its text but one of whose items is prose, and a section whose
// id is its own (dropped) heading made a slug and happens to hold a furniture word ("…-responses-…").
import { describe, expect, it } from 'vitest';
import { parseHTML } from 'linkedom';
import { isProse, isProseText, PROSE_MIN_CHARS, type El } from '../../src/extract/dom.js';
import { htmlToMarkdown } from '../../src/extract/markdown.js';
import { ORCHARD_PROSE as PROSE } from '../support/markdown-pages.js';

const el = (html: string) => parseHTML(`<html><body>${html}</body></html>`).document.body.firstElementChild as unknown as El;

describe('prose', () => {
  it('is a paragraph long enough with little link text', () => {
    expect(isProseText(PROSE_MIN_CHARS, 0)).toBe(true);
    expect(isProseText(PROSE_MIN_CHARS - 1, 0)).toBe(false);
    expect(isProse(el('<p>The pickers came up the hill at dawn and worked until the light went.</p>'))).toBe(true);
    expect(isProse(el('<p><a href="/a">The pickers came up the hill at dawn and worked until dark</a> today</p>'))).toBe(false);
    expect(isProse(el('<a href="/a">The pickers came up the hill at dawn and worked until the light went.</a>'))).toBe(false);
  });
});

describe('blocks of the article that look like furniture', () => {
  it('keeps a list of linked notes when one of its items is prose', () => {
    const bugs = [1, 2, 3, 4, 5]
      .map((n) => `<li><a href="https://bugs.example/${n}">Bug ${n}00 – the ladder rack no longer tips over in the wind</a></li>`)
      .join('');
    const list = `<ul><li>We have the green light for another season of pickers on the north slope.</li>${bugs}</ul>`;
    const html = `<html><body><article><h1>The hill orchard</h1>${PROSE.map((p) => `<p>${p}</p>`).join('')}${list}<p>${PROSE[0]}</p></article></body></html>`;
    const { markdown } = htmlToMarkdown(html, 'The hill orchard');
    expect(markdown).toContain('another season of pickers');
    expect(markdown).toContain('the ladder rack no longer tips over');
  });

  it('keeps a section whose long id is a slug, without its heading', () => {
    const section = `<section id="pickers-predictable-scriptable-responses-from-growers-x1f3"><p>${PROSE[1]}</p><p>The growers wrote down every answer the pickers gave, and the answers were always the same ones.</p></section>`;
    const html = `<html><body><article><h1>The hill orchard</h1>${PROSE.map((p) => `<p>${p}</p>`).join('')}${section}</article></body></html>`;
    const { markdown } = htmlToMarkdown(html, 'The hill orchard');
    expect(markdown).toContain('every answer the pickers gave');
  });
});
