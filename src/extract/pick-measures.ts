// How Readability's pick is weighed against the page it came from: the share of the page's prose it holds
// (to choose between the pick and the page) and the share of a block's prose it holds sentence by sentence
// (to tell whether the densest block of the page is a second opinion worth taking).
import { singleSpaced, type El } from './dom.js';
import type { Paragraph } from './prose-container.js';
import { TextFinder } from './text-finder.js';

/** The pruned article's text must be at least this share of the pruned body's text to be used… */
export const READABILITY_MIN_SHARE = 0.25;
/** …and at least this long: below it Readability's pick is a guess (a single card of a listing). */
export const READABILITY_MIN_CHARS = 200;
/** An article this long is used whatever the share: the page around it is then a portal, not a listing. */
export const READABILITY_SURE_CHARS = 2_000;

/**
 * A page whose densest pruned block still holds this much prose has content of its own (a one-paragraph
 * post above a long comment thread); only below it is a pick pruned to nothing taken back without its names.
 */
export const OWN_PROSE_MIN_CHARS = 100;

/** Share of the densest block's prose that Readability's pick must contain to be trusted. */
export const MIN_PROSE_COVERAGE = 0.5;
/** …unless that block holds less prose than this share of the pick's text. */
export const DENSE_MIN_SHARE_OF_PICK = 0.5;

/** `el`'s text as the pick's measures search it (white space single-spaced, not trimmed). */
export function searchableText(el: El): string {
  return singleSpaced(el.textContent ?? '');
}

/**
 * The share of the page's prose (its paragraphs' positive weights) that `pick`'s text holds. `pickText`:
 * searchableText(pick), when the caller already has it.
 */
export function proseShare(pick: El, paras: Paragraph[], pickText = searchableText(pick)): number {
  const text = new TextFinder(pickText);
  let total = 0;
  let held = 0;
  for (const p of paras) {
    if (p.weight <= 0) continue;
    total += p.weight;
    if (text.has(p.text)) held += p.weight;
  }
  return total === 0 ? 0 : held / total;
}

/**
 * The share of `block`'s prose (by length) that `article` also holds, sentence by sentence: Readability
 * rewrites paragraphs (line breaks become paragraphs), so whole paragraphs need not match. `articleText`:
 * searchableText(article), when the caller already has it.
 */
export function proseCoverage(block: El, paras: Paragraph[], article: El, articleText = searchableText(article)): number {
  const text = new TextFinder(articleText);
  let total = 0;
  let found = 0;
  // A paragraph the page repeats (a carousel's cloned slides, a mobile copy of a block) counts once.
  const seen = new Set<string>();
  for (const p of paras) {
    if (p.weight <= 0 || !block.contains(p.el) || seen.has(p.text)) continue;
    seen.add(p.text);
    // Each sentence counts as much prose as its paragraph holds: a list of names one to a line is long
    // text but little prose, and the pick holding it must not pass for holding the article.
    const proseShare = p.weight / p.text.length;
    for (const sentence of p.text.split(/(?<=[.!?:;])\s+/)) {
      total += sentence.length * proseShare;
      if (text.has(sentence)) found += sentence.length * proseShare;
    }
  }
  return total === 0 ? 1 : found / total;
}
