// Choosing the block that holds the content when Readability's pick is the wrong one: a long list it
// crowned instead of the article before it, or content the name-based pruning mistook for furniture.
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { pruneBoilerplate } from '../../src/extract/boilerplate.js';
import type { El } from '../../src/extract/dom.js';
import { htmlToMarkdown, proseCoverage } from '../../src/extract/markdown.js';
import { paragraphs } from '../../src/extract/prose-container.js';

const FIRST = ['Ann', 'Ben', 'Cleo', 'Dan', 'Eve', 'Finn', 'Gus', 'Hana', 'Ivo', 'Jo'];
const LAST = ['Abbot', 'Brown', 'Cruz', 'Diaz', 'Evans', 'Ford', 'Gray', 'Hill'];
const PLACES = ['Rutgers University', 'writer', 'Yale University', 'historian', 'journalist', 'Bard College'];
/** Signatories one to a line: long text, and commas Readability scores as prose. */
const NAMES = FIRST.flatMap((f, i) => LAST.map((l, j) => `<strong>${f} ${l}</strong>, <span>${PLACES[(i + j) % PLACES.length]}</span><br>`)).join('\n');

function weightOf(html: string, tag: string): number {
  const doc = parseHTML(`<html><body>${html}</body></html>`).document;
  return paragraphs(doc.body as unknown as El).find((p) => p.el.tagName === tag)?.weight ?? NaN;
}

describe('htmlToMarkdown content pick', () => {
  it('weighs a cell of names one to a line as no prose, however long', () => {
    expect(weightOf(`<table><tr><td>${NAMES}</td></tr></table>`, 'TD')).toBe(0);
  });

  it('keeps the text of a line-broken paragraph as textContent reads it, to be found in the pick', () => {
    const doc = parseHTML(`<html><body><p>First line of the paragraph.<br>Second line of it.</p></body></html>`).document;
    const [p] = paragraphs(doc.body as unknown as El);
    expect(p?.text).toBe((doc.querySelector('p')?.textContent ?? '').trim());
  });

  it('keeps the weight of paragraphs a site separates by line breaks', () => {
    const line = 'A whole sentence of running prose that is long enough to count on its own.';
    expect(weightOf(`<div><p>${line}<br>${line}<br>${line}</p></div>`, 'P')).toBe(3 * line.length);
  });
});

describe('htmlToMarkdown content named like furniture', () => {
  it('keeps a live ticker whose entries the site calls "comments" when pruning would leave no prose', () => {
    const entries = Array.from(
      { length: 20 },
      (_, i) =>
        `<div class="match-comment"><div class="match-comment-time"><span>${90 - i * 4}'</span></div><div class="match-comment-body">Entry ${i + 1}: the visitors push forward again, the winger crosses from the left and the keeper punches the ball clear of danger.</div></div>`,
    ).join('');
    const html = `<html><body><nav><a href="/">Home</a> <a href="/football">Football</a></nav><main><h1>Lorient vs Lyon</h1><div class="match-comments">${entries}</div></main><footer><a href="/legal">Legal</a></footer></body></html>`;
    const { markdown } = htmlToMarkdown(html, 'Lorient vs Lyon');
    expect(markdown).toContain('Entry 1: the visitors push forward');
    expect(markdown).toContain('Entry 20: the visitors push forward');
    expect(markdown).not.toContain('Football');
  });

  it('still drops a comment thread under an article', () => {
    const prose = Array.from(
      { length: 4 },
      (_, i) => `<p>Article paragraph ${i + 1}: the council approved the new cycle lanes after a long debate about parking, costs and safety near schools.</p>`,
    ).join('');
    const comments = Array.from(
      { length: 20 },
      (_, i) =>
        `<div class="comment"><p>Reader ${i + 1} wrote: I cycle this road every day and the new lanes are long overdue, thank you to the council for acting.</p></div>`,
    ).join('');
    const html = `<html><body><main><article><h1>Cycle lanes approved</h1>${prose}</article><section class="comments">${comments}</section></main></body></html>`;
    const { markdown } = htmlToMarkdown(html, 'Cycle lanes approved');
    expect(markdown).toContain('Article paragraph 4');
    expect(markdown).not.toContain('Reader 1 wrote');
  });

  it('drops the comment thread Readability crowned over a one-paragraph post', () => {
    const comments = Array.from(
      { length: 25 },
      (_, i) =>
        `<li class="comment"><p>Reader ${i + 1} wrote: what a lovely photograph, the colours, the coat and the belt all work so well together, thank you for sharing.</p></li>`,
    ).join('');
    const html = `<html><body><nav><a href="/">Home</a> <a href="/style">Style</a></nav><div class="post"><h2>At the show</h2><p>The actress looks like she walked out of the pages of an old fashion magazine in her bright red dress.</p></div><ol class="comment-list">${comments}</ol></body></html>`;
    const { markdown } = htmlToMarkdown(html, 'At the show');
    expect(markdown).toContain('bright red dress');
    expect(markdown).not.toContain('Reader 1 wrote');
  });
});

describe('proseCoverage', () => {
  it("counts a carousel's cloned slides once", () => {
    const slide = (i: number) =>
      `<div class="slide"><p>Slide ${i}: with this channel we reached students and young professionals in every city we tried, quickly and without waste.</p></div>`;
    const slides = [1, 2, 3].map(slide).join('');
    const section = (i: number) =>
      `<section><p>Section ${i}: our platform lets brands reach a young audience where it spends its time, with formats that feel native.</p></section>`;
    const doc = parseHTML(
      `<html><body><div class="page">${section(1)}${section(2)}${section(3)}<div class="slider">${slides}${slides}</div></div></body></html>`,
    ).document;
    const body = doc.body as unknown as El;
    const pick = doc.querySelector('.slider') as unknown as El;
    // Three distinct slides of six distinct paragraphs: half the page's prose, not two thirds.
    expect(proseCoverage(body, paragraphs(body), pick)).toBeCloseTo(0.5, 1);
  });

  it('counts a long list of names in the pick as little prose', () => {
    const letter = Array.from(
      { length: 3 },
      (_, i) => `<p>Letter paragraph ${i + 1}: we believe that open debate is the lifeblood of a free society.</p>`,
    ).join('');
    const doc = parseHTML(`<html><body><div class="text">${letter}<table><tr><td>${NAMES}</td></tr></table></div></body></html>`).document;
    const body = doc.body as unknown as El;
    const pick = doc.querySelector('table') as unknown as El;
    expect(proseCoverage(body, paragraphs(body), pick)).toBeLessThan(0.5);
  });
});

describe('htmlToMarkdown page of links', () => {
  it('keeps a post whose content is a list of bookmarked links, without the menus', () => {
    const items = Array.from(
      { length: 8 },
      (_, i) =>
        `<li><p><a href="https://news.example/${i}">Bookmarked story number ${i + 1} about the press</a></p><p>via <a href="https://news.example/">news.example</a></p></li>`,
    ).join('');
    const html = `<html><body><nav><a href="/">Home</a> <a href="/about">About this blog</a></nav><main><article><h1>Links of the day</h1><div class="entry-content"><ul class="linkroll">${items}</ul><p>Posted from a bookmarking service.</p></div></article></main><aside class="sidebar"><ul><li><a href="/a">Archive of older posts</a></li></ul></aside></body></html>`;
    const { markdown } = htmlToMarkdown(html, 'Links of the day');
    expect(markdown).toContain('Bookmarked story number 1 about the press');
    expect(markdown).toContain('Bookmarked story number 8 about the press');
    expect(markdown).not.toContain('About this blog');
    expect(markdown).not.toContain('Archive of older posts');
  });
});

describe('pruneBoilerplate collapsed text', () => {
  const filler = `<div class="more">${'<p>Other section text that is long enough to count in the page total for sure.</p>'.repeat(20)}</div>`;
  const pruned = (body: string): string => {
    const doc = parseHTML(`<html><body>${body}</body></html>`).document;
    pruneBoilerplate(doc.body as unknown as El);
    return doc.body.textContent ?? '';
  };

  it('keeps text shown in part behind a "read more" toggle', () => {
    const text = pruned(
      `<section><h2>Location</h2><div class="js_readmore"><p>The little village lies among meadows, fields and woods at the edge of the hills, with hiking trails and a cycle path along the river starting right at the door of the house. Shops, a bakery and a small lake for swimming are a short walk away.</div></section>${filler}`,
    );
    expect(text).toContain('The little village lies among meadows');
  });

  it('still removes a "read more" link block', () => {
    const text = pruned(`<p>Intro of a teaser.</p><div class="read-more"><a href="/story">Read the whole story about the village</a></div>${filler}`);
    expect(text).not.toContain('Read the whole story');
  });
});
