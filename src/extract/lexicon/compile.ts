// The one place where word lists become matchers. A list (or a table of lists per language, flattened in
// the table's order) is joined into one alternation, compiled once at module load by the rule that uses it;
// rules keep only the frame around the words (anchors, separators), the words stay data.

/** A list of words or phrases per language (ISO 639-1 code); a phrase may be a small regular-expression fragment. */
export type WordTable = Readonly<Record<string, readonly string[]>>;

/** The words of a list or of a table, all languages together in the table's order (a page may mix them). */
export function wordsOf(words: readonly string[] | WordTable): readonly string[] {
  return Array.isArray(words) ? words : Object.values(words as WordTable).flat();
}

/** One alternation group of the words: "(a|b|c)". */
export function anyOf(words: readonly string[] | WordTable): string {
  return `(${wordsOf(words).join('|')})`;
}

/** A matcher for any of the words between `before` and `after` (regular-expression text), case aside. */
export function phraseTest(before: string, words: readonly string[] | WordTable, after: string, flags = 'i'): RegExp {
  return new RegExp(`${before}${anyOf(words)}${after}`, flags);
}

/** The same as a non-capturing group, "(?:a|b|c)", for rules that read where a match starts or what it spans. */
export function groupOf(words: readonly string[] | WordTable): string {
  return `(?:${wordsOf(words).join('|')})`;
}
