// A linked phrase inside a sentence (a name linked to its topic page, wrapped in a span) is part of the
// sentence: the link-density pruning judges the sentence, not the span alone. A span of links that is the
// whole line is still pruned.
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { pruneBoilerplate, type El } from '../../src/browser/boilerplate.js';
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
});
