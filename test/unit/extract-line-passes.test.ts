// The line rules of pruneBoilerplateText pass over the blocks twice, because a line the first pass empties
// of its date is left a bare label for the second; a first pass that removed nothing is not repeated (the
// tree is as it was, so the verdicts would be too). Both halves on small trees built for these tests.
import { parseHTML } from 'linkedom';
import { expect, it } from 'vitest';
import type { El } from '../../src/extract/dom.js';
import { pruneBoilerplateText } from '../../src/extract/boilerplate-text.js';

const PROSE = 'The growers walked the hill at dawn and counted the trees that had come through the winter without damage.';

function pruned(inner: string): string {
  const body = parseHTML(`<html><body><article>${inner}</article></body></html>`).document.body as unknown as El;
  pruneBoilerplateText(body, 10_000);
  return body.innerHTML;
}

it('removes in a second pass the label the first pass left bare', () => {
  // The outer block holds a block, so the first pass judges only the date inside it; once the date is gone,
  // the label stands alone.
  expect(pruned(`<p>${PROSE}</p><div>Published: <div>3 May 2021, 10:27</div></div><p>${PROSE}</p>`)).toBe(`<article><p>${PROSE}</p><p>${PROSE}</p></article>`);
});

it('leaves a tree without boilerplate lines as it was', () => {
  const inner = `<p>${PROSE}</p><div>Planted: <div>four rows of pears</div></div><p>${PROSE} <a href="/x">the notes</a></p>`;
  expect(pruned(inner)).toBe(`<article>${inner}</article>`);
});
