// Readability's pass runs in a thread of its own while the page is pruned (src/extract/readability-thread.ts):
// none of it in the converting thread, the same pick and trace as when it ran here, and a pick left
// uncollected never answers for the next page. Needs the build (`npm run build`): the thread runs its script.
import { Readability } from '@mozilla/readability';
import { afterEach, expect, it } from 'vitest';
import { longArticle } from '../../bench/lib/long-article.mjs';
import { htmlToMarkdown } from '../../src/extract/markdown.js';
import { readabilityPick } from '../../src/extract/readability-pass.js';
import { startReadabilityPick } from '../../src/extract/readability-thread.js';

const parse = Readability.prototype.parse;
afterEach(() => {
  Readability.prototype.parse = parse;
});

it("runs Readability's pass outside the converting thread, its pick traced before the page's pruning", () => {
  let here = 0;
  Readability.prototype.parse = function (this: Readability<string>) {
    here++;
    return parse.call(this);
  };
  const result = htmlToMarkdown(longArticle(64 * 1024), 'A long report on the river | Example Gazette', 'main', { debug: true });
  expect(result.source).toBe('article');
  expect(here).toBe(0);
  const rules = result.trace!.map((t) => t.rule);
  const pick = rules.indexOf('readability-pick');
  expect(pick).toBeGreaterThanOrEqual(0);
  // Every entry after it but the page's pruning's comes from a step that read the pick.
  expect(result.trace!.slice(0, pick).every((t) => t.tree === 'page')).toBe(true);
});

it('gives the pick Readability gives here, and never an earlier page’s', () => {
  const first = longArticle(32 * 1024).replace('A long report on the river', 'The first page');
  const second = `<html><head><title>Second</title></head><body><article>${'<p>The second page holds its own article, long enough for Readability to pick it as one.</p>'.repeat(20)}</article></body></html>`;
  startReadabilityPick(first); // never collected: its conversion failed, say
  const pick = startReadabilityPick(second)();
  expect(pick).toEqual(readabilityPick(second));
  expect(pick?.content).toContain('The second page');
});
