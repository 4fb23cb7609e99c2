import { z } from 'zod';
import { ToolError } from '../src/errors.js';
import { defineBrowserTool } from '../src/browser/define-browser-tool.js';
import { pageUrlInput, waitInput } from '../src/browser/input-schemas.js';
import { BOUNDED_NOTE, boundedInputShape, boundedOutputShape } from '../src/registry/bounded-result.js';
import { cachedShape, documentShape, PAGE_OPTIONS_REF, pageOptionsRefine, pageOptionsShape } from '../src/browser/page-options.js';
import { actionsOutputShape } from '../src/browser/actions/output.js';
import { lazyModule } from '../src/registry/lazy-module.js';
import { documentHtml } from '../src/browser/page-scripts.js';

// pdf.js, mammoth and the other readers (in the extraction workers): loaded with the first document.
const documentModule = lazyModule(() => import('../src/browser/document-content.js'));

/** Larger rendered documents are refused rather than truncated (a cut document is not the page). */
const MAX_HTML_BYTES = 10_000_000;

export default defineBrowserTool({
  name: 'browser.content',
  title: 'Rendered HTML of a web page',
  description:
    'Renders a page in Chromium; returns its live DOM as HTML (up to 10 MB) and title; a PDF, DOCX, XLSX, CSV or text URL as HTML. ' +
    BOUNDED_NOTE +
    ' ' +
    PAGE_OPTIONS_REF,
  input: z.strictObject({ url: pageUrlInput, wait: waitInput, ...boundedInputShape, ...pageOptionsShape }).superRefine(pageOptionsRefine),
  output: z.object({
    html: z.string().describe('The rendered document as HTML.'),
    title: z.string().describe('The page title ("" if none).'),
    bytes: z.number().int().describe('Size of the whole html in bytes (UTF-8).'),
    ...boundedOutputShape,
    ...documentShape,
    ...cachedShape,
    ...actionsOutputShape,
  }),
  price: '0.003',
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  bounded: { kind: 'text', field: 'html' },
  timeoutMs: 60_000,
  concurrency: 8,
  example: { url: 'https://example.com/', wait: 'load' },
  readsDom: true,
  async render(_page, _input, { loaded }) {
    const html = await loaded.evaluate(documentHtml, undefined);
    const bytes = Buffer.byteLength(html);
    if (bytes > MAX_HTML_BYTES) throw new ToolError(`The rendered page is ${bytes} bytes of HTML, more than the ${MAX_HTML_BYTES}-byte limit.`, 'input');
    const title = await loaded.title();
    return { html, title, bytes, final_url: loaded.current.url, status_code: loaded.current.status };
  },
  async readDocument(input, { ctx, budget }) {
    const { documentContent } = await documentModule();
    return documentContent(ctx, input, budget.left());
  },
});
