// Extraction cost must grow with the page, not with its square. Counted, not timed: the characters every
// text read (textContent) returns and every substring search (includes, indexOf, lastIndexOf) may scan, for
// the same generated article at 0.25 MB and at 1 MB of HTML. Linear work grows 4×; the quadratic steps this
// replaced (every paragraph searched for in the whole article, a picture searched for in the whole article
// for every block) grew 16×.
import { parseHTML } from 'linkedom';
import { afterEach, expect, it } from 'vitest';
import { longArticle } from '../../bench/lib/long-article.mjs';
import { htmlToMarkdown } from '../../src/extract/markdown.js';

const restore: (() => void)[] = [];
afterEach(() => {
  for (const undo of restore.splice(0)) undo();
});

/** Hands `count` the length of every element textContent read until the test's restore list is run. */
function countTextContent(count: (chars: number) => void): void {
  // The getter of the DOM's textContent, wherever linkedom defines it on the element's prototype chain.
  let proto: object | null = Object.getPrototypeOf(parseHTML('<p>x</p>').document.querySelector('p'));
  while (proto && !Object.getOwnPropertyDescriptor(proto, 'textContent')) proto = Object.getPrototypeOf(proto);
  const descriptor = Object.getOwnPropertyDescriptor(proto!, 'textContent')!;
  Object.defineProperty(proto!, 'textContent', {
    ...descriptor,
    get(this: unknown) {
      const text = descriptor.get!.call(this) as string | null;
      count(text?.length ?? 0);
      return text;
    },
  });
  restore.push(() => Object.defineProperty(proto!, 'textContent', descriptor));
}

/** Characters read or scanned while converting `html`. */
function charactersTouched(html: string): number {
  let n = 0;
  // A search scans from where it starts to where it finds the text, or to the end when it does not.
  const strings = String.prototype;
  const { includes, indexOf, lastIndexOf } = strings;
  const scanned = (text: string, needle: unknown, from: number, at: number) => (at >= 0 ? at - from + String(needle).length : text.length - from);
  strings.includes = function (this: string, needle: string, from = 0) {
    n += scanned(this, needle, from, indexOf.call(this, needle, from));
    return includes.call(this, needle, from);
  };
  strings.indexOf = function (this: string, needle: string, from = 0) {
    const at = indexOf.call(this, needle, from);
    n += scanned(this, needle, from, at);
    return at;
  };
  strings.lastIndexOf = function (this: string, needle: string, from = Infinity) {
    const at = lastIndexOf.call(this, needle, from);
    n += Math.min(from, this.length) - (at >= 0 ? at : 0);
    return at;
  };
  restore.push(() => Object.assign(strings, { includes, indexOf, lastIndexOf }));
  countTextContent((chars) => (n += chars));
  const result = htmlToMarkdown(html, 'A long report on the river | Example Gazette');
  for (const undo of restore.splice(0)) undo();
  expect(result.source).toBe('article');
  return n;
}

/** Characters element textContent returned while converting `html`, per character of the page's text. */
function joinedTextPerPageText(html: string): number {
  const page = parseHTML(html).document.body.textContent.length;
  let n = 0;
  countTextContent((chars) => (n += chars));
  htmlToMarkdown(html, 'A long report on the river | Example Gazette');
  for (const undo of restore.splice(0)) undo();
  return n / page;
}

it('joins the text of whole blocks a bounded number of times: lengths are counted without the joined copy', () => {
  // Readability's own reads are about 19 copies of the page's text; ours were 39 more (textLength joined the
  // text of every wrapper, the whole article each time, for every rule that measured it, and each measure of
  // the pick joined it again), now about 11.
  expect(joinedTextPerPageText(longArticle(256 * 1024))).toBeLessThan(33);
});

it('reads and searches text in proportion to the page size', () => {
  const small = charactersTouched(longArticle(256 * 1024));
  const large = charactersTouched(longArticle(1024 * 1024));
  // 4× the page: linear work is about 4× (a little more for the fixed parts being a smaller share); 16× is quadratic.
  expect(large / small).toBeLessThan(6);
});
