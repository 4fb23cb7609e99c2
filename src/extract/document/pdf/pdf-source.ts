// pdf.js (Mozilla, Apache-2.0; the legacy build runs on Node 20) reads the file: metadata, and for each
// page its text items as positioned runs. Fonts are only named here to tell bold from regular; nothing is
// rendered, no fonts are loaded into a canvas, scripts and eval stay off.
import type * as PdfJs from './pdfjs.js';
import type { PageRuns, TextRun } from './text-runs.js';

export interface PdfInfo {
  pageCount: number;
  title: string | undefined;
  author: string | undefined;
}

export interface PdfSource {
  info: PdfInfo;
  page(number: number): Promise<PageRuns>;
  close(): Promise<void>;
}

let pdfjs: Promise<typeof PdfJs> | undefined;

// As pdf.js loads on Node it looks for @napi-rs/canvas (left out of an install: it only renders) and warns
// on stderr once per missing canvas class. Nothing here renders, so those lines only alarm an operator;
// they are dropped while the module loads, and every other warning passes.
const CANVAS_WARNING = /^Warning: Cannot (load "@napi-rs\/canvas"|polyfill `(DOMMatrix|ImageData|Path2D)`)/;

/* eslint-disable no-console -- pdf.js's warning sink is swapped for the load, nothing is logged here */
async function loadPdfJs(): Promise<typeof PdfJs> {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && CANVAS_WARNING.test(args[0])) return;
    warn(...args);
  };
  try {
    return await import('./pdfjs.js');
  } finally {
    console.warn = warn;
  }
}
/* eslint-enable no-console */

const BOLD_FONT = /bold|black|heavy|semibold|demi|\.B\b|-B$|CMBX|Medi/i;

interface TextItemLike {
  str: string;
  transform: number[];
  width: number;
  fontName: string;
  hasEOL: boolean;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export async function openPdf(bytes: Uint8Array): Promise<PdfSource> {
  pdfjs ??= loadPdfJs();
  const { getDocument } = await pdfjs;
  // pdf.js takes ownership of (detaches) the buffer it is given: hand it a copy.
  const task = getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
    stopAtErrors: false,
  });
  const doc = await task.promise;
  const meta = await doc.getMetadata().catch(() => undefined);
  const infoDict = (meta?.info ?? {}) as Record<string, unknown>;
  const info: PdfInfo = {
    pageCount: doc.numPages,
    title: text(infoDict.Title) ?? text(meta?.metadata?.get('dc:title')),
    author: text(infoDict.Author) ?? text(meta?.metadata?.get('dc:creator')),
  };
  // Bold or not, per pdf.js font id (ids are per document, so pages share them).
  const bold = new Map<string, boolean>();
  return {
    info,
    async page(number) {
      const page = await doc.getPage(number);
      // The page as it is shown: its /Rotate and crop box applied, y growing downwards.
      const viewport = page.getViewport({ scale: 1 });
      const { Util } = await pdfjs!;
      const content = await page.getTextContent();
      // Whitespace items stay: in justified text they bridge wide word gaps, which tells a word space from a gutter.
      const items = content.items.filter((i): i is typeof i & TextItemLike => 'str' in i && i.str !== '');
      // Font objects (and their names) reach this side only with a page's operator list, which costs as much
      // as the text itself: asked only for a page that uses a font not seen on an earlier page.
      if (items.some((i) => !bold.has(i.fontName))) {
        await page.getOperatorList();
        for (const name of new Set(items.map((i) => i.fontName))) {
          if (bold.has(name)) continue;
          let fontName = '';
          try {
            fontName = String((page.commonObjs.get(name) as { name?: unknown } | undefined)?.name ?? '');
          } catch {
            // not loaded (a Type3 font): regular
          }
          bold.set(name, BOLD_FONT.test(fontName));
        }
      }
      const runs: TextRun[] = [];
      // In justified text a word gap can be wider than a gutter; the PDF then draws the space as text of its
      // own between the two words. Words bridged that way, in content order on one baseline, are one run.
      // null: the last run ended its line.
      let spaceAfterLast: boolean | null = false;
      for (const item of items) {
        const [a, b, c, d, e, f] = Util.transform(viewport.transform, item.transform) as [number, number, number, number, number, number];
        // Only text upright on the page as shown is read (not margin stamps or vertical labels).
        if (Math.abs(b) > 0.01 || Math.abs(c) > 0.01 || a <= 0 || d >= 0) continue;
        if (item.str.trim() === '') {
          // A space that ends a line (pdf.js's hasEOL) bridges nothing: the next text is another line or column.
          spaceAfterLast = spaceAfterLast === null ? null : runs.length > 0 && !item.hasEOL;
          continue;
        }
        const run: TextRun = { text: item.str, x: e, y: f, width: item.width, size: -d, bold: bold.get(item.fontName) ?? false };
        const last = runs.at(-1);
        const lastEnd = last ? last.x + last.width : 0;
        if (
          spaceAfterLast &&
          last &&
          Math.abs(last.y - run.y) < 0.1 * run.size &&
          Math.abs(last.size - run.size) < 0.01 &&
          run.x >= lastEnd - 0.5 &&
          last.bold === run.bold
        ) {
          last.text = `${last.text.trimEnd()} ${run.text.trimStart()}`;
          last.width = run.x + run.width - last.x;
        } else {
          runs.push(run);
        }
        spaceAfterLast = item.hasEOL ? null : /\s$/.test(item.str);
      }
      page.cleanup();
      return { number, width: viewport.width, height: viewport.height, runs };
    },
    async close() {
      await doc.destroy();
    },
  };
}
