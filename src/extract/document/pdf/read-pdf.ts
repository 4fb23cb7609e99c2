// A PDF → Markdown in reading order: runs → segments → running lines dropped → tables found → XY-cut
// reading order → paragraphs → headings, lists and tables in Markdown. A file without a text layer (scans)
// says so instead of returning nothing.
import { ToolError } from '../../../errors.js';
import type { DocumentText } from '../document-text.js';
import { selectPages } from '../page-range.js';
import { leafBlocks } from './paragraphs.js';
import { blocksToMarkdown, type PageBlocks } from './pdf-markdown.js';
import { openPdf } from './pdf-source.js';
import { readingOrder } from './reading-order.js';
import { runningLines } from './running-lines.js';
import { splitSegment, toSegments } from './segments.js';
import { findTables, type Table } from './tables.js';
import { weightedMode, type Segment } from './text-runs.js';

export interface PdfOptions {
  /** Page selection ("1-5,9"); all pages when undefined. */
  pages?: string | undefined;
  /** Mark each page's start with `<!-- page N -->`. */
  pageBreaks?: boolean;
  /** Keep running headers, footers and page numbers. */
  keepRunningLines?: boolean;
  signal?: AbortSignal | undefined;
}

type Item = Segment | (Table & { y: number; x0: number; x1: number; top: number; bottom: number });

export async function readPdf(bytes: Uint8Array, opts: PdfOptions = {}): Promise<DocumentText> {
  let source;
  try {
    source = await openPdf(bytes);
  } catch (err) {
    const name = (err as Error).name;
    if (name === 'PasswordException') throw new ToolError('The PDF is password-protected; it cannot be read.', 'input');
    throw new ToolError(`The PDF could not be read: ${(err as Error).message}`, 'input');
  }
  try {
    const numbers = selectPages(opts.pages, source.info.pageCount);
    const pages: { number: number; height: number; segments: Segment[] }[] = [];
    for (const number of numbers) {
      opts.signal?.throwIfAborted();
      const page = await source.page(number);
      pages.push({ number, height: page.height, segments: toSegments(page.runs) });
    }
    const chars = pages.reduce((n, p) => n + p.segments.reduce((m, s) => m + s.text.length, 0), 0);
    const meta = {
      type: 'pdf' as const,
      pages: source.info.pageCount,
      pages_read: numbers.length,
      ...(source.info.author ? { author: source.info.author } : {}),
    };
    if (chars === 0) {
      return {
        ...meta,
        title: source.info.title ?? '',
        markdown: `*This PDF has no text layer (its pages are images); it needs OCR to be read.*`,
        needs_ocr: true,
      };
    }
    const dropped = opts.keepRunningLines ? pages.map(() => new Set<Segment>()) : runningLines(pages);
    const body = weightedMode(pages.flatMap((p) => p.segments.map((s): [number, number] => [s.size, s.text.length]))) ?? 10;
    const blocks: PageBlocks[] = pages.map((page, i) => {
      const segments = page.segments.filter((s) => !dropped[i]!.has(s));
      const tables = findTables(segments);
      const inTable = new Set(tables.flatMap((t) => [...t.segments]));
      const items: Item[] = [...segments.filter((s) => !inTable.has(s)), ...tables.map((t) => ({ ...t, ...t.box, y: t.box.top }))];
      const split = (item: Item, x: number): [Item, Item] | undefined => ('rows' in item ? undefined : splitSegment(item, x));
      return { number: page.number, blocks: readingOrder(items, body, split).flatMap((leaf) => leafBlocks(leaf, body)) };
    });
    const { markdown, firstHeading } = blocksToMarkdown(blocks, { pageBreaks: opts.pageBreaks ?? false });
    return { ...meta, title: source.info.title ?? firstHeading ?? '', markdown };
  } finally {
    await source.close();
  }
}
