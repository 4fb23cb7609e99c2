// The DOM leaf's fast readings must answer exactly what the slower calls they replace answer: the collapsed
// text length as collapseSpace(text).length, and the tag-name walks as querySelector, querySelectorAll and
// closest with the same tag list (the rules' output must not change by a byte for being faster).
import { parseHTML } from 'linkedom';
import { expect, it } from 'vitest';
import {
  closestTag,
  collapsedLength,
  collapseSpace,
  firstTagInside,
  singleSpaced,
  tagNames,
  tagsInside,
  textContentLength,
  textLength,
  type El,
} from '../../src/extract/dom.js';

it('counts the collapsed length as collapseSpace does, and collapses as \\s+ would, for every kind of white space', () => {
  const spaces = [' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u1680', '\u2000', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff'];
  // Characters that look like space but are not \s: they count.
  const others = ['a', 'é', '\u200b', '\u180e', '😀', '.', '\u0085'];
  const samples = ['', ' ', 'a', '  a  ', 'a  b', '\u00a0x\u3000y\ufeff'];
  let seed = 7;
  const pick = <T>(xs: T[]): T => xs[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % xs.length]!;
  for (let i = 0; i < 2000; i++) {
    let s = '';
    const len = i % 13;
    for (let k = 0; k < len; k++) s += pick([...spaces, ...others]);
    samples.push(s);
  }
  for (const s of samples) expect(collapsedLength(s), JSON.stringify(s)).toBe(collapseSpace(s).length);
  // singleSpaced skips single spaces for speed; it must still answer exactly what `\s+` → ' ' answers.
  for (const s of samples) expect(singleSpaced(s), JSON.stringify(s)).toBe(s.replace(/\s+/g, ' '));
  for (const s of samples) expect(collapseSpace(s), JSON.stringify(s)).toBe(s.replace(/\s+/g, ' ').trim());
});

const PAGE = `<html><body><div id="a"><p id="p1">x <span id="s1"><b id="b1">y</b></span></p>
  <template><p id="hidden-p">t</p></template>
  <section id="sec"><ul><li id="li1"><a id="l1" href="/1">one</a></li></ul><TABLE id="t"><tr><td id="td1"><pre id="pre"><code id="c">z</code></pre></td></tr></TABLE></section>
  <figure id="fig"><img id="img" src="x.png"><figcaption id="cap">c</figcaption></figure></div></body></html>`;

it('finds by tag name what querySelector, querySelectorAll and closest find', () => {
  const doc = parseHTML(PAGE).document;
  const lists = ['p', 'a', 'h1, h2, h3', 'pre, code, table', 'p, div, ul, ol, table', 'img, picture', 'figure', 'td, th', 'b, strong', 'li', 'template'];
  const all = [doc.body, ...Array.from(doc.body.querySelectorAll('*'))] as El[];
  for (const list of lists) {
    const tags = tagNames(...list.split(',').map((t) => t.trim()));
    for (const el of all) {
      const where = `${list} in #${el.id || el.tagName}`;
      expect(firstTagInside(el, tags), where).toBe(el.querySelector(list));
      expect(tagsInside(el, tags), where).toEqual(Array.from(el.querySelectorAll(list)));
      expect(closestTag(el, tags), where).toBe(el.closest(list));
    }
  }
  // The walk found something for most lists: the comparisons above are not all between nulls.
  expect(tagsInside(doc.body as El, tagNames('p', 'a', 'code', 'img')).map((e) => e.id)).toEqual(['p1', 'l1', 'c', 'img']);
});

it("measures an element's text as collapsedLength(textContent) does, text split across nodes and nesting included", () => {
  // White space at the joins of text nodes, inside phrases, in a template, a comment and an empty element.
  const html = `<html><body><div id="w"> lead <b> bold</b>\u00a0<i></i>tail <!-- a comment -->
    <template><p>in a template</p></template><p id="p">one\n\ttwo <a href="/x">  link </a><span> </span> end </p>
    <ul><li> a </li><li>b</li></ul><pre>  code\n  kept</pre></div><p id="empty"></p><p id="space">  \n </p></body></html>`;
  const doc = parseHTML(html).document;
  // Text nodes added one by one (as a rule's edit leaves them) rather than parsed as one.
  const p = doc.getElementById('p')!;
  p.appendChild(doc.createTextNode('  more '));
  p.appendChild(doc.createTextNode('words  '));
  const all = [doc.body, ...Array.from(doc.body.querySelectorAll('*'))] as El[];
  for (const el of all) {
    expect(textLength(el), `#${el.id || el.tagName}`).toBe(collapsedLength(el.textContent ?? ''));
    expect(textContentLength(el), `#${el.id || el.tagName}`).toBe((el.textContent ?? '').length);
  }
  expect(textLength(doc.body as El)).toBeGreaterThan(40);
});
