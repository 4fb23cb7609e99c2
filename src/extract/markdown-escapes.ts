// Turndown escapes every character Markdown could read as syntax, wherever it stands. Escapes that protect
// nothing only cost the reader: a gender star ("Leser*innen"), a footnote mark ("[1]"). These are undone
// where CommonMark cannot read the bare character as syntax.

/**
 * An asterisk escaped alone in its paragraph: emphasis needs a pair of delimiters, so a single asterisk with
 * no other one in the paragraph is text. At the start of a line before a space it would open a list item,
 * so it stays escaped there.
 */
function loneAsterisk(block: string): string {
  const escaped = block.match(/\\\*/g)?.length ?? 0;
  const all = block.match(/\*/g)?.length ?? 0;
  if (escaped !== 1 || all !== 1) return block;
  if (/^[\s>#-]*\\\*(\s|$)/m.test(block)) return block;
  return block.replace('\\*', '*');
}

/**
 * Brackets escaped as a pair around short text ("[1]", "[sic]") that no "(" or "[" or ":" follows: without
 * reference definitions (Turndown writes links inline) such brackets are no link and read as themselves.
 * "[ ]" and "[x]" stay escaped: at the start of a list item GFM reads them as a task's checkbox.
 */
const BRACKETED = /\\\[(?![ xX]\\\])([^[\]\\\n]{1,40})\\\](?![([:])/g;

/** Markdown with the escapes that protect nothing removed, paragraph by paragraph; code stays as it is. */
export function relaxEscapes(md: string): string {
  let inFence = false;
  return md
    .split(/(\n{2,})/)
    .map((block) => {
      // Fenced code keeps every character; a fence's blank lines split it into several blocks.
      const fences = block.match(/^\s*(```|~~~)/gm)?.length ?? 0;
      const skip = inFence || fences > 0;
      if (fences % 2 === 1) inFence = !inFence;
      if (skip || /`/.test(block)) return block;
      return loneAsterisk(block).replace(BRACKETED, '[$1]');
    })
    .join('');
}
