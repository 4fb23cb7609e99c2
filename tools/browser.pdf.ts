import { z } from 'zod';
import { ToolError } from '../src/errors.js';
import { defineBrowserTool } from '../src/browser/define-browser-tool.js';
import { exactlyOneSource, htmlInput, pageUrlInput, waitInput } from '../src/browser/input-schemas.js';
import { cachedShape, PAGE_OPTIONS_REF, pageOptionsRefine, pageOptionsShape } from '../src/browser/page-options.js';
import { actionsOutputShape } from '../src/browser/actions/output.js';
import { pdfPageCount } from '../src/browser/pdf-pages.js';
import { lazyModule } from '../src/registry/lazy-module.js';
import { artifactLinkShape } from '../src/artifacts/artifact-link.js';

// The artifact store (local files, PostgreSQL or S3): loaded with the first file stored.
const publishModule = lazyModule(() => import('../src/artifacts/publish.js'));
// Numbering a printed range in itself: loaded with the first such print.
const rangeNumbersModule = lazyModule(() => import('../src/browser/print-range-numbers.js'));

const FORMATS = { letter: 'Letter', a4: 'A4', legal: 'Legal', a3: 'A3', a5: 'A5' } as const;
// Chromium takes px, in, cm and mm; pt and pc are converted. At most 2 inches so some page remains.
const LENGTH = /^(\d{1,4}(?:\.\d{1,4})?)(px|in|cm|mm|pt|pc)?$/;
const PER_INCH = { px: 96, in: 1, cm: 2.54, mm: 25.4, pt: 72, pc: 6 } as const;
// "1-5, 8, 11-13": pages and ranges, 1-based.
const PAGE_RANGES = /^\s*\d{1,5}(\s*-\s*\d{1,5})?(\s*,\s*\d{1,5}(\s*-\s*\d{1,5})?)*\s*$/;
// Chromium prints its own date and title when one of the two is missing: an empty one replaces it.
const EMPTY_TEMPLATE = '<span></span>';
const TEMPLATE_MAX = 20_000;

function marginLength(css: string): string {
  const m = LENGTH.exec(css.trim())!;
  const value = Number(m[1]);
  const unit = (m[2] ?? 'px') as keyof typeof PER_INCH;
  return unit === 'pt' || unit === 'pc' ? `${value / PER_INCH[unit]}in` : `${value}${unit}`;
}

function marginInches(css: string): number {
  const m = LENGTH.exec(css.trim());
  return m ? Number(m[1]) / PER_INCH[(m[2] ?? 'px') as keyof typeof PER_INCH] : Number.NaN;
}

const input = z
  .strictObject({
    url: pageUrlInput.optional(),
    html: htmlInput.optional(),
    size: z.enum(['letter', 'a4', 'legal', 'a3', 'a5']).default('letter'),
    landscape: z.boolean().default(false),
    margins: z
      .string()
      .max(16)
      .default('0.5in')
      .refine((s) => LENGTH.test(s.trim()), { message: 'must be a CSS length such as 0.5in, 10mm, 1cm, 36pt or 48px' })
      .refine((s) => !(marginInches(s) > 2), { message: 'must be at most 2 inches' })
      .describe('All sides; CSS length (px, in, cm, mm, pt, pc), max 2in.'),
    background: z.boolean().default(true),
    header_html: z.string().max(TEMPLATE_MAX).optional().describe('Atop each page; elements of class pageNumber, totalPages, date, title, url are filled.'),
    footer_html: z.string().max(TEMPLATE_MAX).optional().describe('Like header_html, at the bottom.'),
    page_ranges: z
      .string()
      .max(200)
      .refine((s) => PAGE_RANGES.test(s), { message: 'must be pages and ranges such as "1-5, 8"' })
      .optional()
      .describe('e.g. "1-5, 8".'),
    scale: z.number().min(0.1).max(2).default(1),
    prefer_css_page_size: z.boolean().default(false).describe('CSS @page size wins over size.'),
    wait: waitInput,
    ...pageOptionsShape,
  })
  .superRefine(exactlyOneSource)
  .superRefine(pageOptionsRefine);

const output = z.object({
  ...artifactLinkShape,
  pages: z.number().int().describe('Number of pages in the PDF.'),
  bytes: z.number().int().describe('PDF size in bytes.'),
  ...cachedShape,
  ...actionsOutputShape,
});

export default defineBrowserTool({
  name: 'browser.pdf',
  title: 'Print a web page to PDF',
  description: 'Renders url or html (one) in Chromium and prints it to PDF (print styles); returns a signed link and page count. ' + PAGE_OPTIONS_REF,
  input,
  output,
  price: '0.005',
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  timeoutMs: 90_000,
  concurrency: 4,
  example: { url: 'https://example.com/', size: 'a4', margins: '0.5in' },
  async render(page, i, { ctx, stage }) {
    const margin = marginLength(i.margins);
    const print = (header: string | undefined, footer: string | undefined) =>
      page
        .pdf({
          format: FORMATS[i.size],
          landscape: i.landscape,
          printBackground: i.background,
          margin: { top: margin, right: margin, bottom: margin, left: margin },
          scale: i.scale,
          preferCSSPageSize: i.prefer_css_page_size,
          ...(i.page_ranges !== undefined ? { pageRanges: i.page_ranges.replace(/\s+/g, '') } : {}),
          ...(header !== undefined || footer !== undefined
            ? { displayHeaderFooter: true, headerTemplate: header ?? EMPTY_TEMPLATE, footerTemplate: footer ?? EMPTY_TEMPLATE }
            : {}),
        })
        .catch((err: unknown) => {
          // Chromium refuses a range past the last page; that is the caller's to fix.
          if (/page range/i.test((err as Error).message)) throw new ToolError(`page_ranges: "${i.page_ranges}" is outside the document's pages.`, 'input');
          throw err;
        });
    // A range with a header or footer is numbered in itself ("1 of 3"), which Chromium does not do: the
    // range is printed bare and the header and footer are laid over it.
    const numberRange = i.page_ranges !== undefined && (i.header_html !== undefined || i.footer_html !== undefined);
    let pdf = numberRange ? await print(undefined, undefined) : await print(i.header_html, i.footer_html);
    let pages: number;
    try {
      pages = await pdfPageCount(pdf);
      if (numberRange) {
        pdf = await (
          await rangeNumbersModule()
        ).overlayRangeNumbers(page, pdf, {
          header: i.header_html ?? EMPTY_TEMPLATE,
          footer: i.footer_html ?? EMPTY_TEMPLATE,
          margin: { top: margin, right: margin, bottom: margin, left: margin },
          title: await page.title(),
          url: page.url(),
        });
      }
    } catch (err) {
      if (err instanceof ToolError) throw err;
      throw new ToolError(`Chromium produced a PDF that could not be read back: ${(err as Error).message}`, 'transient');
    }
    stage('storing');
    const link = await (await publishModule()).publishArtifact(ctx, pdf, 'application/pdf');
    return { ...link, pages, bytes: pdf.byteLength };
  },
});
