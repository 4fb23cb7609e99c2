// The pruning rules table (PRUNE_RULES in src/extract/boilerplate.ts): each rule is switched off by name, an
// unknown name is an error naming the field, and the `debug` trace says which rule removed which block and
// in which tree (the page's body or Readability's pick: both are pruned, the result keeps one).
import { describe, expect, it } from 'vitest';
import { PRUNE_RULE_NAMES } from '../../src/extract/boilerplate.js';
import { htmlToMarkdown } from '../../src/extract/markdown.js';

const ARTICLE = Array.from(
  { length: 6 },
  (_, i) =>
    `<p>Paragraph ${i + 1} of the article tells how the river was measured at dawn, with enough words and commas, clauses and detail to read as prose of its own.</p>`,
).join('');
const PAGE = `<html><head><title>River</title></head><body><article><h1>River</h1>${ARTICLE}<div class="newsletter"><p>Weekly digest of river levels, every Monday.</p><p>Delivered at nine.</p></div></article></body></html>`;

describe('pruning rules table', () => {
  it('traces each removal with its rule and the tree it was pruned from', () => {
    const result = htmlToMarkdown(PAGE, 'River', 'main', { debug: true });
    expect(result.markdown).not.toContain('Weekly digest');
    const removal = result.trace?.find((t) => t.text.includes('Weekly digest'));
    expect(removal).toMatchObject({ rule: 'names-and-roles', tag: 'div' });
    // The same block went from both trees; the trace tells them apart.
    const trees = new Set(result.trace?.filter((t) => t.text.includes('Weekly digest')).map((t) => t.tree));
    expect(trees).toEqual(new Set(['page', 'article']));
  });

  it('switches a rule off by name, and names the field for an unknown one', () => {
    expect(htmlToMarkdown(PAGE, 'River', 'main', { off: ['names-and-roles'] }).markdown).toContain('Weekly digest');
    expect(() => htmlToMarkdown(PAGE, 'River', 'main', { off: ['names-and-role'] })).toThrow(/^off: no extraction rule named "names-and-role"/);
    expect(PRUNE_RULE_NAMES).toContain('names-and-roles');
  });
});
