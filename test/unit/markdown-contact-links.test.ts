// E-mail and telephone links are details to keep, not pointers elsewhere: a short paragraph that is one
// address is not pruned as link-dense, while a paragraph that is one link to another page still is.
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

describe('pruneBoilerplate contact links', () => {
  it('keeps a paragraph that is an e-mail address', () => {
    expect(pruned('<p><a href="mailto:harvest@orchard.example">harvest@orchard.example</a></p>')).toContain('harvest@orchard.example');
  });

  it('still drops a paragraph that is one link to another page', () => {
    expect(pruned('<p><a href="https://orchard.example/news">More news from the orchard</a></p>')).not.toContain('More news from the orchard');
  });
});
