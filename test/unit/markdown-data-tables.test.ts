// A table that pairs each link with a cell of plain text (a recipe's linked ingredients beside their
// quantities) is data, kept with its links by the link-density pruning; a table of nothing but links is
// still navigation.
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { pruneBoilerplate } from '../../src/extract/boilerplate.js';
import type { El } from '../../src/extract/dom.js';
import { ORCHARD_PROSE as PROSE } from '../support/markdown-pages.js';

const row = (amount: string, item: string) => `<tr><td>${amount}</td><td><span><a href="/glossary/${item.length}">${item}</a></span></td></tr>`;

function pruned(table: string): string {
  const doc = parseHTML(`<html><body><div>${PROSE.map((p) => `<p>${p}</p>`).join('')}<table>${table}</table></div></body></html>`).document;
  const body = doc.body as unknown as El;
  pruneBoilerplate(body);
  return body.textContent ?? '';
}

describe('pruneBoilerplate data tables', () => {
  it('keeps a table of linked items beside plain quantities, links and all', () => {
    const text = pruned(row('500 g', 'Bramley apples') + row('2 tbsp', 'Brown sugar') + row('1 pinch', 'Cinnamon'));
    expect(text).toContain('500 g');
    expect(text).toContain('Bramley apples');
    expect(text).toContain('Cinnamon');
  });

  it('still drops a table whose cells are all links', () => {
    const links = ['Orchard news', 'Recipes from the hill', 'Volunteer calendar'].map((t) => `<tr><td><a href="/${t.length}">${t}</a></td></tr>`).join('');
    const text = pruned(links);
    expect(text).toContain(PROSE[1]);
    expect(text).not.toContain('Volunteer calendar');
  });
});
