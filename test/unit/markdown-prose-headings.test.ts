// A heading left with nothing after it announces nothing and goes, but one that is a sentence of prose (a
// standfirst or closing line set in heading type) says something itself and stays.
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { pruneBoilerplate } from '../../src/extract/boilerplate.js';
import type { El } from '../../src/extract/dom.js';
import { ORCHARD_PROSE as PROSE } from '../support/markdown-pages.js';

function pruned(tail: string): string {
  const doc = parseHTML(`<html><body><div>${PROSE.map((p) => `<p>${p}</p>`).join('')}${tail}</div></body></html>`).document;
  const body = doc.body as unknown as El;
  pruneBoilerplate(body);
  return body.innerHTML;
}

describe('pruneBoilerplate headings at the end', () => {
  it('keeps a closing sentence set as a heading', () => {
    const line = 'Next spring the cooperative hopes to welcome twice as many volunteers to the hill.';
    expect(pruned(`<h4>${line}</h4>`)).toContain(line);
  });

  it('still drops a heading whose section is gone', () => {
    expect(pruned('<h4>More from the orchard</h4>')).not.toContain('More from the orchard');
  });
});
