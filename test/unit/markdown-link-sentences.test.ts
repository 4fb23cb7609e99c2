// A list whose items are sentences with links in them (a status report's "Neil has patches up to <a>…</a>")
// is the article's list however much of its text the links hold; a menu or a "related" list, whose entries
// open with their link, still goes as link-dense.
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { pruneBoilerplate } from '../../src/extract/boilerplate.js';
import type { El } from '../../src/extract/dom.js';
import { ORCHARD_PROSE as PROSE } from '../support/markdown-pages.js';

function pruned(extra: string): string {
  const doc = parseHTML(`<html><body><div>${PROSE.map((p) => `<p>${p}</p>`).join('')}${extra}</div></body></html>`).document;
  const body = doc.body as unknown as El;
  pruneBoilerplate(body);
  return body.textContent ?? '';
}

describe('pruneBoilerplate lists of sentences with links', () => {
  it('keeps a list item that is a sentence whose links are phrases', () => {
    const list =
      '<ul><li>Ann has patches to <a href="https://bugs.example/1">repair the ladder rack that tips over in the wind</a>, and <a href="https://bugs.example/2">oil the old cider press gears again</a></li></ul>';
    expect(pruned(list)).toContain('repair the ladder rack that tips over');
  });

  it('still drops a list whose entries open with their link', () => {
    const related =
      '<ul><li><a href="https://orchard.example/a">Pruning the old pear trees in a wet winter</a> March 2</li><li><a href="https://orchard.example/b">How the cider press came back to life</a> by Ann</li></ul>';
    expect(pruned(related)).not.toContain('Pruning the old pear trees');
  });
});
