// Substring tests of many short texts (a page's paragraphs, sentences) against one long text (the article).
// `long.includes(short)` for every paragraph costs the article's length each time, which made a long
// article quadratic; the texts are usually asked for in the order they appear, so each search starts where
// the last one was found and only a text that is absent (or earlier) costs a search of the rest.
export class TextFinder {
  private cursor = 0;

  constructor(private readonly text: string) {}

  /** Whether `needle` occurs anywhere in the text: the same answer as `text.includes(needle)`. */
  has(needle: string): boolean {
    const at = this.text.indexOf(needle, this.cursor);
    if (at >= 0) {
      this.cursor = at;
      return true;
    }
    // Not at or after the cursor: only an occurrence starting before it is left.
    return this.cursor > 0 && this.text.lastIndexOf(needle, this.cursor - 1) >= 0;
  }
}
