// Markdown split at its ATX headings (`# …` to `###### …`, outside fenced code), for retrieval pipelines:
// each chunk runs from one heading to the next and carries the path of headings it sits under. Ranges
// are character offsets (UTF-16 code units, as JavaScript and JSON count them) into the whole text.

export interface MarkdownChunk {
  /** The headings this chunk sits under, outermost first, its own heading last ([] before the first). */
  heading_path: string[];
  start: number;
  end: number;
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The chunks of `markdown`, in order, covering it from 0 to its length with no gaps. */
export function markdownChunks(markdown: string): MarkdownChunk[] {
  const starts: { at: number; path: string[] }[] = [{ at: 0, path: [] }];
  const open: { level: number; text: string }[] = [];
  let fence: string | undefined;
  let at = 0;
  for (const line of markdown.split('\n')) {
    const fenceMark = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (fenceMark !== undefined && fenceMark[0] === fence[0] && fenceMark.length >= fence.length) fence = undefined;
    } else if (fenceMark !== undefined) {
      fence = fenceMark;
    } else {
      const m = HEADING.exec(line);
      if (m) {
        const level = m[1]!.length;
        while (open.length > 0 && open[open.length - 1]!.level >= level) open.pop();
        open.push({ level, text: m[2]! });
        starts.push({ at, path: open.map((h) => h.text) });
      }
    }
    at += line.length + 1;
  }
  const chunks: MarkdownChunk[] = [];
  starts.forEach((s, i) => {
    const end = i + 1 < starts.length ? starts[i + 1]!.at : markdown.length;
    // Text before the first heading is a chunk only when there is some.
    if (end > s.at) chunks.push({ heading_path: s.path, start: s.at, end });
  });
  return chunks;
}
