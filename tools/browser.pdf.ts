import { z } from 'zod';
import { ToolError } from '../src/errors.js';
import { defineBrowserTool } from '../src/browser/define-browser-tool.js';
import { exactlyOneSource, htmlInput, pageUrlInput, waitInput } from '../src/browser/input-schemas.js';
import { pdfPageCount } from '../src/browser/pdf-pages.js';
import { artifactLinkShape, publishArtifact } from '../src/artifacts/publish.js';

const FORMATS = { letter: 'Letter', a4: 'A4', legal: 'Legal', a3: 'A3', a5: 'A5' } as const;
// Chromium takes px, in, cm and mm; pt and pc are converted. At most 2 inches so some page remains.
const LENGTH = /^(\d{1,4}(?:\.\d{1,4})?)(px|in|cm|mm|pt|pc)?$/;
const PER_INCH = { px: 96, in: 1, cm: 2.54, mm: 25.4, pt: 72, pc: 6 } as const;

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
    size: z.enum(['letter', 'a4', 'legal', 'a3', 'a5']).default('letter').describe('Paper size. Default letter.'),
    landscape: z.boolean().default(false).describe('Landscape orientation. Default false.'),
    margins: z
      .string()
      .max(16)
      .default('0.5in')
      .refine((s) => LENGTH.test(s.trim()), { message: 'must be a CSS length such as 0.5in, 10mm, 1cm, 36pt or 48px' })
      .refine((s) => !(marginInches(s) > 2), { message: 'must be at most 2 inches' })
      .describe('Margin on all four sides as a CSS length (px, in, cm, mm, pt, pc; at most 2in). Default 0.5in.'),
    background: z.boolean().default(true).describe('Print background colours and images. Default true.'),
    wait: waitInput,
  })
  .superRefine(exactlyOneSource);

const output = z.object({
  ...artifactLinkShape,
  pages: z.number().int().describe('Number of pages in the PDF.'),
  bytes: z.number().int().describe('PDF size in bytes.'),
});

export default defineBrowserTool({
  name: 'browser.pdf',
  title: 'Print a web page to PDF',
  description:
    'Renders a web page (url) or an HTML document (html; give exactly one) in headless Chromium and prints it to PDF with print styles. ' +
    'Paper size letter, a4, legal, a3 or a5, optional landscape, one margin for all sides as a CSS length (default 0.5in), backgrounds on by default. ' +
    'Returns a signed link valid 24 hours and the real page count. Pages may only reach public addresses.',
  input,
  output,
  price: '0.005',
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  timeoutMs: 90_000,
  concurrency: 4,
  example: { url: 'https://example.com/', size: 'a4', margins: '0.5in' },
  async render(page, i, { ctx, stage }) {
    const margin = marginLength(i.margins);
    const pdf = await page.pdf({
      format: FORMATS[i.size],
      landscape: i.landscape,
      printBackground: i.background,
      margin: { top: margin, right: margin, bottom: margin, left: margin },
    });
    let pages: number;
    try {
      pages = await pdfPageCount(pdf);
    } catch (err) {
      throw new ToolError(`Chromium produced a PDF that could not be read back: ${(err as Error).message}`, 'transient');
    }
    stage('storing');
    const link = await publishArtifact(ctx, pdf, 'application/pdf');
    return { ...link, pages, bytes: pdf.byteLength };
  },
});
