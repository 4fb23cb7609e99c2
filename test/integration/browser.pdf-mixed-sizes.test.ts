// A printed range numbered in itself ("1 of 3") from a document whose pages differ in size: CSS named
// pages make A4 portrait and US Letter landscape sheets in one print. Each page's header and footer must
// be drawn for that page's own size: the footer right-aligned against its own right edge and inside its
// own bottom margin, the header inside its own top margin. Read back with pdf.js (positions of each text
// run) and pdf-lib (page sizes), independently of the code that drew them.
import { PDFDocument } from 'pdf-lib';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactStoreService } from '../../src/artifacts/service.js';
import pdf from '../../tools/browser.pdf.js';
import { startBrowserHarness, type BrowserHarness } from '../support/browser-harness.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(async () => {
  await h?.close();
});

/** Chromium rounds page sizes to whole device pixels: A4 comes out 594.96 × 841.92 pt. */
const A4 = { width: 595, height: 842 };
const LETTER_LANDSCAPE = { width: 792, height: 612 };
/** 1in margins: header and footer live in the top and bottom 72 pt of each page. */
const MARGIN_PT = 72;

// Five sheets: A4, Letter landscape, A4, Letter landscape, A4. The range 2-4 starts on a landscape sheet,
// so the first page's size (the one every overlay used to take) is the wrong one for the A4 page between.
const MIXED = `<!doctype html><html><head><title>Mixed</title><style>
  @page { size: A4 portrait; }
  @page wide { size: letter landscape; }
  section { break-after: page; font: 14px serif; }
  section.wide { page: wide; }
</style></head><body>${[1, 2, 3, 4, 5].map((n) => `<section class="${n % 2 === 0 ? 'wide' : ''}"><p>Sheet ${n} body.</p></section>`).join('')}</body></html>`;

interface Run {
  str: string;
  x: number;
  /** From the page's bottom edge, PDF user space. */
  y: number;
  width: number;
}

async function pagesOf(bytes: Uint8Array): Promise<{ width: number; height: number; runs: Run[] }[]> {
  const doc = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 }).promise;
  const out = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const [x0, y0, x1, y1] = page.view;
    const runs = (await page.getTextContent()).items
      .filter((i) => 'str' in i && i.str.trim() !== '')
      .map((i) => {
        const item = i as { str: string; transform: number[]; width: number };
        return { str: item.str, x: item.transform[4]! - x0!, y: item.transform[5]! - y0!, width: item.width };
      });
    out.push({ width: x1! - x0!, height: y1! - y0!, runs });
  }
  await doc.destroy();
  return out;
}

describe('page_ranges with a header and footer on pages of different sizes', () => {
  it('numbers each page 1..3 of 3 inside that page’s own margins and edges', async () => {
    const out = await h.run(pdf, {
      html: MIXED,
      prefer_css_page_size: true,
      page_ranges: '2-4',
      margins: '1in',
      header_html: '<div style="font-size:10px;width:100%;padding-left:10px">HEAD <span class="pageNumber"></span></div>',
      footer_html:
        '<div style="font-size:10px;width:100%;text-align:right;padding-right:10px">Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>',
    });
    expect(out.pages).toBe(3);
    const got = await h.base.use(artifactStoreService).then((s) => s.get(out.file_id));
    const bytes = new Uint8Array(got!.body);

    // The sizes are the document's own (pdf-lib reads the page boxes): landscape Letter, A4, landscape Letter.
    const sizes = (await PDFDocument.load(bytes)).getPages().map((p) => p.getSize());
    [LETTER_LANDSCAPE, A4, LETTER_LANDSCAPE].forEach((want, i) => {
      expect(Math.abs(sizes[i]!.width - want.width), `page ${i + 1} width ${sizes[i]!.width}`).toBeLessThan(2);
      expect(Math.abs(sizes[i]!.height - want.height), `page ${i + 1} height ${sizes[i]!.height}`).toBeLessThan(2);
    });

    const pages = await pagesOf(bytes);
    pages.forEach((p, i) => {
      const where = `page ${i + 1} (${Math.round(p.width)} × ${Math.round(p.height)} pt)`;
      expect(p.runs.map((r) => r.str).join(' '), where).toContain(`Sheet ${i + 2} body.`);
      const footer = p.runs.find((r) => /^Page \d+ of \d+$/.test(r.str.trim()));
      expect(footer?.str.trim(), where).toBe(`Page ${i + 1} of 3`);
      // Inside this page's bottom margin, and its right end near this page's right edge (right-aligned).
      expect(footer!.y, where).toBeGreaterThan(0);
      expect(footer!.y, where).toBeLessThan(MARGIN_PT);
      const rightGap = p.width - (footer!.x + footer!.width);
      expect(rightGap, where).toBeGreaterThan(0);
      expect(rightGap, where).toBeLessThan(40);
      const header = p.runs.find((r) => /^HEAD \d+$/.test(r.str.trim()));
      expect(header?.str.trim(), where).toBe(`HEAD ${i + 1}`);
      expect(header!.y, where).toBeGreaterThan(p.height - MARGIN_PT);
      expect(header!.y, where).toBeLessThan(p.height);
      expect(header!.x, where).toBeLessThan(40);
    });
  });
});
