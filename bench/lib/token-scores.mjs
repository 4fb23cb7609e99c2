// Token F1 of an extractor's output against a corpus's main-content truth, shared by the markdown benches
// that score against full bodies: words are letters and digits after normaliseForMatch (lower-cased,
// Markdown syntax and link targets dropped), counted as multisets.
import { normaliseForMatch } from './trafilatura-corpus.mjs';

/** The words of `text` (already normalised) with how often each occurs. */
export function tokens(text) {
  const counts = new Map();
  for (const t of text.match(/[\p{L}\p{N}]+/gu) ?? []) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** The truth's word counts, from its plain text. */
export function truthTokens(text) {
  return tokens(normaliseForMatch(text));
}

/** Precision, recall and F1 of one output's words against the truth's, as multisets. */
export function pageScore(output, truth) {
  const got = tokens(normaliseForMatch(output ?? ''));
  let overlap = 0,
    gotTotal = 0,
    truthTotal = 0;
  for (const n of truth.values()) truthTotal += n;
  for (const [t, n] of got) {
    gotTotal += n;
    overlap += Math.min(n, truth.get(t) ?? 0);
  }
  const precision = gotTotal ? overlap / gotTotal : truthTotal ? 0 : 1;
  const recall = truthTotal ? overlap / truthTotal : 1;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}

/** Page means of precision, recall and F1, and the share of pages under F1 0.5. */
export function summary(scores) {
  const n = scores.length || 1;
  const mean = (k) => scores.reduce((s, x) => s + x[k], 0) / n;
  return { f1: mean('f1'), precision: mean('precision'), recall: mean('recall'), under: scores.filter((s) => s.f1 < 0.5).length / n, pages: scores.length };
}
