// A floor under our extraction: Readability's pick of the same page, pruned of boilerplate like ours.
// Overrides may choose another block (the densest prose, the whole page, the pick with its sibling boxes);
// they must not lose the article Readability found. When what we keep holds much less of the pick's prose
// than the pick has, the override was wrong and the pick is used (pruning itself is judged by its rules:
// comment threads and pitches are prose, and rightly go).
import { singleSpaced, type El } from './dom.js';
import { paragraphs } from './prose-container.js';
import { TextFinder } from './text-finder.js';

/** Our result must hold at least this share of the prose of Readability's pick… */
export const FLOOR_MIN_SHARE = 0.5;
/** …when the pick has at least this much prose (below it the pick is too small to say). */
export const FLOOR_MIN_PROSE = 500;

/** A paragraph of prose of a block: its text as the page reads it and its weight (paragraphs()). */
export interface ProsePassage {
  text: string;
  weight: number;
}

/** The prose paragraphs of `block` (positive weight), to ask later how much of them another tree holds. */
export function prosePassages(block: El): ProsePassage[] {
  return paragraphs(block)
    .filter((p) => p.weight > 0)
    .map(({ text, weight }) => ({ text, weight }));
}

/** Whether `keptText` (single-spaced) holds less than the floor's share of `passages`, which are enough prose to say. */
export function passagesBelowFloor(passages: readonly ProsePassage[], keptText: string): boolean {
  const text = new TextFinder(keptText);
  let prose = 0;
  let found = 0;
  for (const p of passages) {
    prose += p.weight;
    if (text.has(p.text)) found += p.weight;
  }
  return prose >= FLOOR_MIN_PROSE && found / prose < FLOOR_MIN_SHARE;
}

/**
 * Whether what we kept holds less than the floor's share of the prose of Readability's pick (pruned like
 * ours): an override that chose another block (a denser one, the page) did not hold the article.
 */
export function belowFloor(pick: El, kept: El): boolean {
  return pick !== kept && passagesBelowFloor(prosePassages(pick), singleSpaced(kept.textContent ?? ''));
}
