// A linked phrase inside a sentence (a name linked to its topic page, wrapped in a span) is part of the
// sentence: the link-density pruning judges the sentence, not the span alone. A span of links that is the
// whole line is still pruned.
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { pruneBoilerplate } from '../../src/extract/boilerplate.js';
import type { El } from '../../src/extract/dom.js';
import { ORCHARD_PROSE as PROSE } from '../support/markdown-pages.js';

function pruned(extra: string): string {
  const doc = parseHTML(`<html><body><div>${PROSE.map((p) => `<p>${p}</p>`).join('')}${extra}</div></body></html>`).document;
  const body = doc.body as unknown as El;
  pruneBoilerplate(body);
  return (body.textContent ?? '').replace(/\s+/g, ' ');
}

describe('pruneBoilerplate linked phrases', () => {
  it('keeps a linked name inside a sentence', () => {
    const text = pruned(
      '<p>The apples were sold to <span class="entity"><a href="/topic/coop">Hill Farmers Cooperative</a></span> at the autumn market in town.</p>',
    );
    expect(text).toContain('sold to Hill Farmers Cooperative at the autumn market');
  });

  it('still drops a line that is a span of links', () => {
    const text = pruned('<div><span><a href="/a">Orchard news</a> <a href="/b">Recipes</a></span></div>');
    expect(text).not.toContain('Orchard news');
  });

  it('drops an edit link beside a heading and a row of links after a title', () => {
    const text = pruned(
      '<h2>Harvest<span class="editsection">[<a href="/edit/1">edit</a>]</span></h2><p>The harvest begins when the first apples fall from the trees in the lower orchard.</p>' +
        '<p>Under the old trees, a season of work. <span><a href="/reprints">Order Reprints</a> | <a href="/paper">Today’s Paper</a></span></p>',
    );
    expect(text).not.toContain('edit');
    expect(text).not.toContain('Order Reprints');
  });

  it('drops a footnote back-link in a reference list item', () => {
    const text = pruned(
      '<ol><li><span class="backlink"><a href="#ref-1">^</a></span> Smith, Anna (2011). The orchard year in twelve chapters. Field Press.</li></ol>',
    );
    expect(text).not.toContain('^');
    expect(text).toContain('The orchard year');
  });
});
