// Readability's own pass on a copy of the cleaned page: a parse of the page's HTML and Readability's pick,
// with no DOM in what it returns (the pick as HTML, the metadata it guessed), so it can run in a thread of
// its own (readability-thread.ts) as well as here.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import type { ReadabilityGuess } from './metadata.js';
import { READABILITY_MIN_CHARS } from './pick-measures.js';

/** What the pass found: the pick's HTML and what Readability guessed of the page's metadata. */
export interface ReadabilityPick {
  content: string;
  guess: ReadabilityGuess;
}

/** Readability's pick of `html`, or null when it found none or gave up (very large documents). */
export function readabilityPick(html: string): ReadabilityPick | null {
  const copy = parseHTML(html).document;
  try {
    const parsed = new Readability(copy as unknown as Document, { keepClasses: true, maxElemsToParse: 50_000, charThreshold: READABILITY_MIN_CHARS }).parse();
    const content = parsed?.content;
    if (!parsed || !content) return null;
    // Only the fields the metadata reads: its textContent is as long as the pick and nobody reads it.
    const { title, byline, excerpt, siteName, publishedTime, lang } = parsed;
    return { content, guess: { title, byline, excerpt, siteName, publishedTime, lang } };
  } catch {
    // Readability gives up on very large documents; the cleaned body is used instead.
    return null;
  }
}
