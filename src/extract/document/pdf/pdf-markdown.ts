// The blocks of every page → Markdown: headings from type size (larger than the body text, ranked by size)
// and weight (a short bold line at body size ranks below every larger size), lists, tables, and paragraphs
// that a column or page break cut in two mended back together.
import { gfmTable } from '../gfm-table.js';
import { joinLines, paragraphText, type Block, type Paragraph } from './paragraphs.js';
import { weightedMode } from './text-runs.js';

export interface PageBlocks {
  number: number;
  blocks: Block[];
}

/** A heading is at least this much larger than the body text. */
const HEADING_SCALE = 1.12;
const MAX_HEADING_WORDS = 20;
const TERMINAL = /[.!?:;"”)\]]$/;

function headingSizes(pages: readonly PageBlocks[], body: number): number[] {
  const sizes = new Set<number>();
  for (const page of pages)
    for (const b of page.blocks) if (b.kind === 'text' && isHeadingShape(b) && b.size >= body * HEADING_SCALE) sizes.add(Math.round(b.size * 2) / 2);
  return [...sizes].sort((a, b) => b - a);
}

function isHeadingShape(p: Paragraph): boolean {
  const text = paragraphText(p);
  return p.list === undefined && p.lines.length <= 6 && text.split(' ').length <= MAX_HEADING_WORDS && /\p{L}/u.test(text);
}

function headingLevel(p: Paragraph, body: number, sizes: readonly number[]): number | undefined {
  if (!isHeadingShape(p)) return undefined;
  const text = paragraphText(p);
  if (p.size >= body * HEADING_SCALE) return Math.min(6, sizes.indexOf(Math.round(p.size * 2) / 2) + 1);
  if (p.bold && p.lines.length === 1 && p.size >= body * 0.95 && text.split(' ').length <= 12 && !/[.,;]$/.test(text)) return Math.min(6, sizes.length + 1);
  return undefined;
}

function escapeParagraph(text: string): string {
  return text.replace(/^(#{1,6}\s|>|[-+*]\s|\d+[.)]\s)/, '\\$1');
}

export interface MarkdownOptions {
  /** Put `<!-- page N -->` before each page's text (and never mend a paragraph across pages). */
  pageBreaks: boolean;
}

export interface PdfMarkdown {
  markdown: string;
  /** The first top-level heading, for a title when the metadata has none. */
  firstHeading: string | undefined;
}

export function blocksToMarkdown(pages: readonly PageBlocks[], opts: MarkdownOptions): PdfMarkdown {
  const body =
    weightedMode(pages.flatMap((p) => p.blocks.flatMap((b): [number, number][] => (b.kind === 'text' ? [[b.size, paragraphText(b).length]] : [])))) ?? 10;
  const sizes = headingSizes(pages, body);
  const out: string[] = [];
  let firstHeading: string | undefined;
  // The last plain paragraph emitted (its index in out), while a following one may continue it.
  let open: { index: number; text: string; size: number } | undefined;
  let listOpen = false;
  let lastHeading: { index: number; level: number; text: string; block: Paragraph } | undefined;
  for (const page of pages) {
    if (opts.pageBreaks) {
      out.push(`<!-- page ${page.number} -->`);
      open = undefined;
      listOpen = false;
    }
    for (const block of page.blocks) {
      if (block.kind === 'table') {
        out.push(gfmTable(block.rows));
        open = undefined;
        listOpen = false;
        continue;
      }
      const text = paragraphText(block);
      const level = headingLevel(block, body, sizes);
      if (level !== undefined) {
        // A heading wrapped over several lines can arrive as one block per line (its line spacing is larger
        // than the body's): the next line of the same level, right below, continues it.
        const above = lastHeading?.block.lines.at(-1);
        if (
          lastHeading &&
          lastHeading.index === out.length - 1 &&
          lastHeading.level === level &&
          above &&
          block.lines[0]!.y - above.y <= 1.6 * block.size &&
          block.lines[0]!.y > above.y
        ) {
          lastHeading.text = joinLines(lastHeading.text, text);
          lastHeading.block = block;
          out[lastHeading.index] = `${'#'.repeat(level)} ${lastHeading.text}`;
        } else {
          out.push(`${'#'.repeat(level)} ${text}`);
          lastHeading = { index: out.length - 1, level, text, block };
        }
        if (firstHeading === undefined && level === 1) firstHeading = lastHeading!.text;
        open = undefined;
        listOpen = false;
      } else if (block.list) {
        const rest = text.slice(text.indexOf(block.list.marker) + block.list.marker.length).trim();
        const number = /\d+/.exec(block.list.marker)?.[0];
        const item = block.list.kind === 'bullet' ? `- ${rest}` : number !== undefined ? `${number}. ${rest}` : `- ${block.list.marker} ${rest}`;
        // Consecutive items are one Markdown list: a single line break between them.
        if (listOpen) out[out.length - 1] += `\n${item}`;
        else out.push(item);
        listOpen = true;
        open = undefined;
      } else if (open && Math.abs(open.size - block.size) <= 0.1 * block.size && !TERMINAL.test(open.text) && /^\p{Ll}/u.test(text)) {
        open.text = joinLines(open.text, text);
        out[open.index] = escapeParagraph(open.text);
      } else {
        out.push(escapeParagraph(text));
        open = { index: out.length - 1, text, size: block.size };
        listOpen = false;
      }
    }
  }
  return { markdown: out.join('\n\n'), firstHeading };
}
