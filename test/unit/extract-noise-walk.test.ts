// The noise rules (src/extract/noise.ts) run in one walk of the page: each rule says which elements it
// judges, and judges those still in the page when its turn comes, as its own query would find them. Counted,
// not timed: no rule queries the page (six rules were six walks of it, each a selector matched against every
// element). And what the walk must not miss: elements a page puts after </html>, and those parsed from a
// <noscript> block's markup by the rule before.
import { parseHTML } from 'linkedom';
import { afterEach, expect, it } from 'vitest';
import { NOISE_RULES, removeNoise } from '../../src/extract/noise.js';

const restore: (() => void)[] = [];
afterEach(() => {
  for (const undo of restore.splice(0)) undo();
});

/** Counts the calls of the DOM's query methods on documents and elements until the test ends. */
function countQueries(): { calls: number } {
  const counter = { calls: 0 };
  const { document } = parseHTML('<p>x</p>');
  for (const start of [document, document.querySelector('p')]) {
    for (const method of ['querySelectorAll', 'querySelector', 'matches', 'getElementsByTagName']) {
      let proto: object | null = Object.getPrototypeOf(start);
      while (proto && !Object.getOwnPropertyDescriptor(proto, method)) proto = Object.getPrototypeOf(proto);
      if (!proto) continue;
      const owner = proto as Record<string, (...args: unknown[]) => unknown>;
      const original = owner[method]!;
      if ((original as { counted?: boolean }).counted) continue;
      const counted = Object.assign(
        function (this: unknown, ...args: unknown[]) {
          counter.calls++;
          return original.apply(this, args);
        },
        { counted: true },
      );
      owner[method] = counted;
      restore.push(() => (owner[method] = original));
    }
  }
  return counter;
}

const PAGE =
  '<html><head><script>var a = 1;</script></head><body>' +
  '<a href="https://example.org/#main">Skip to content</a>' +
  '<noscript>&lt;img src="https://example.org/pixel.gif" width="1" height="1"&gt;&lt;p&gt;Shown without scripts.&lt;/p&gt;</noscript>' +
  '<div class="cookie-banner">We use cookies.</div><form><input name="q"></form>' +
  '<article><p>The river rose overnight.</p></article>' +
  '</body></html><script>tracker()</script>';

it('cleans the page of noise in one walk, without a query of the page', () => {
  const doc = parseHTML(PAGE).document;
  const counter = countQueries();
  removeNoise(doc, new Set());
  expect(counter.calls).toBe(0);
  const html = doc.toString();
  for (const gone of ['Skip to content', 'var a', 'pixel.gif', 'We use cookies', '<form', 'tracker()']) expect(html).not.toContain(gone);
  // The <noscript> markup was opened: its paragraph is the page's, its pixel (parsed by the noscript rule) judged by the next ones.
  expect(html).toContain('<p>Shown without scripts.</p>');
  expect(html).toContain('The river rose overnight.');
});

it('skips the rules switched off', () => {
  const doc = parseHTML(PAGE).document;
  removeNoise(doc, new Set(NOISE_RULES.map((r) => r.name).filter((n) => n !== 'machinery')));
  const html = doc.toString();
  expect(html).not.toContain('tracker()');
  expect(html).toContain('Skip to content');
  expect(html).toContain('We use cookies');
});
