import { z } from 'zod';
import { defineBrowserTool } from '../src/browser/define-browser-tool.js';
import { pageUrlInput, waitInput } from '../src/browser/input-schemas.js';
import { cachedShape, documentShape, PAGE_OPTIONS_REF, pageOptionsRefine, pageOptionsShape } from '../src/browser/page-options.js';
import { actionsOutputShape } from '../src/browser/actions/output.js';
import { serialiseVisibleDocument } from '../src/browser/page-scripts.js';
import { BOUNDED_NOTE, boundedInputShape, boundedOutputShape, chunksInput, chunksOutput } from '../src/registry/bounded-result.js';
import { lazyModule } from '../src/registry/lazy-module.js';
import type { MarkdownResult } from '../src/extract/markdown.js';
import { preferServerHtml, renderedIsThin } from '../src/extract/server-fallback.js';
import { unknownRuleNames } from '../src/extract/steps.js';
import { documentInputShape, documentOutputShape, extractedMetadataShape } from '../src/browser/document-shape.js';

// linkedom, Readability and Turndown: loaded when the first page is converted, not when the tool is listed.
const markdownModule = lazyModule(() => import('../src/extract/markdown-pool.js'));
// pdf.js, mammoth and the other readers: loaded with the first document.
const documentModule = lazyModule(() => import('../src/browser/document-markdown.js'));

/** Computed styles are checked on pages up to this many elements (hidden ones are dropped). */
const MAX_STYLED_ELEMENTS = 30_000;

export default defineBrowserTool({
  name: 'browser.markdown',
  title: 'Web page as Markdown',
  description:
    'Renders a page in Chromium as GitHub-flavoured Markdown (tables, fenced code, absolute links); ' +
    'also reads PDF, DOCX, XLSX, CSV, JSON, text and feed URLs. ' +
    BOUNDED_NOTE +
    ' ' +
    PAGE_OPTIONS_REF,
  input: z
    .strictObject({
      url: pageUrlInput,
      wait: waitInput,
      content: z
        .enum(['main', 'full'])
        .default('main')
        .describe('main: the article (else the body), no navigation, comments or banners; full: the whole page.'),
      off: z
        .array(z.string())
        .optional()
        .superRefine((names, ctx) => {
          const problem = names && unknownRuleNames(names);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        })
        .describe('Steps to skip (see docs/browser.md).'),
      debug: z.boolean().optional(),
      chunks: chunksInput,
      ...boundedInputShape,
      ...pageOptionsShape,
      ...documentInputShape,
    })
    .superRefine(pageOptionsRefine),
  output: z.object({
    markdown: z.string().describe('The Markdown (body only).'),
    title: z.string().describe('The page title ("" if none).'),
    ...extractedMetadataShape,
    source: z.enum(['article', 'readability', 'page', 'server', 'document']).describe('Which path won.'),
    // With debug: rule, tree, tag, text and (decisions) chose per entry (src/extract/trace.ts, docs/browser.md);
    // not spelled out here, where every character is read by every agent listing the tools.
    trace: z.array(z.unknown()).optional(),
    bytes: z.number().int().describe('UTF-8 bytes of the whole markdown.'),
    ...boundedOutputShape,
    chunks: chunksOutput,
    ...documentShape,
    ...documentOutputShape,
    ...cachedShape,
    ...actionsOutputShape,
  }),
  price: '0.003',
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  bounded: { kind: 'text', field: 'markdown', chunks: true },
  timeoutMs: 60_000,
  concurrency: 8,
  example: { url: 'https://example.com/', wait: 'load' },
  readsDom: true,
  // Falls back to the server's HTML when a script left the page a short notice (src/extract/server-fallback.ts).
  keepsServerHtml: true,
  async render(_page, input, { loaded, opened, ctx }) {
    const doc = await loaded.evaluate(serialiseVisibleDocument, MAX_STYLED_ELEMENTS);
    // The document read: a page a script navigated to after load, else the one opened.
    let shown = loaded.current;
    const { markdownInWorker } = await markdownModule();
    const extract = { ...(input.off?.length ? { off: input.off } : {}), ...(input.debug ? { debug: true } : {}) };
    let result: Omit<MarkdownResult, 'source'> & { source: MarkdownResult['source'] | 'server' } = await markdownInWorker(
      doc.html,
      doc.title,
      input.content,
      ctx.signal,
      extract,
    );
    // A page script that blanked the page (an error notice swapped in for the article, or a navigation to
    // one) leaves the server's HTML of the page opened as the last good copy of it.
    const serverHtml = renderedIsThin(result) ? await opened.serverHtml?.() : null;
    if (serverHtml) {
      // Its links are as the server wrote them: resolved against the page's URL here.
      const server = await markdownInWorker(serverHtml, doc.title, input.content, ctx.signal, { ...extract, baseUrl: opened.url });
      if (preferServerHtml(result, server)) {
        result = { ...server, source: 'server' };
        shown = opened;
      }
    }
    return { ...result, bytes: Buffer.byteLength(result.markdown), final_url: shown.url, status_code: shown.status };
  },
  async readDocument(input, { ctx, budget }) {
    const { documentMarkdown } = await documentModule();
    return documentMarkdown(ctx, input, budget.left());
  },
});
