// browser.markdown's document path: fetch the file through the guard, sniff and read it, and answer in the
// tool's own shape (source 'document', plus what is known about the file).
import { documentInWorker } from '../extract/markdown-pool.js';
import type { ToolContext } from '../registry/define-tool.js';
import { fetchDocument } from './document-fetch.js';
import { wordCount } from '../extract/metadata.js';
import type { RuleTrace } from '../extract/trace.js';
import type { PageOptions } from './page-options.js';

export interface DocumentMarkdownInput extends PageOptions {
  url: string;
  content: 'main' | 'full';
  pages?: string | undefined;
  page_breaks: boolean;
  /** The extraction's switches and trace: a page served as a file goes through its steps; a file has none. */
  off?: string[] | undefined;
  debug?: boolean | undefined;
}

export async function documentMarkdown(ctx: ToolContext, input: DocumentMarkdownInput, timeoutMs: number) {
  const started = Date.now();
  const fetched = await fetchDocument(ctx, input, timeoutMs);
  const contentType = fetched.headers['content-type'] ?? '';
  // Read in an extraction worker: pdf.js and the layout work must not hold the service's event loop.
  const read = await documentInWorker(
    {
      bytes: fetched.body,
      contentType,
      url: fetched.url,
      // 'full' keeps what 'main' drops from a PDF: running headers, footers and page numbers.
      options: { pages: input.pages, pageBreaks: input.page_breaks, keepRunningLines: input.content === 'full' },
      content: input.content,
      extract: { ...(input.off?.length ? { off: input.off } : {}), ...(input.debug ? { debug: true } : {}) },
    },
    ctx.signal,
  );
  ctx.log.debug('document read', { url: fetched.url, bytes: fetched.body.length, ms: Date.now() - started });
  const base = { final_url: fetched.url, status_code: fetched.status };
  if (read.kind === 'page') {
    // A page served with a file's headers: the page pipeline's conversion (scripts do not run).
    return { ...read.page, bytes: Buffer.byteLength(read.page.markdown), ...base };
  }
  if (read.kind !== 'document') throw new Error('the Markdown view of a document came back as HTML');
  const { type, markdown, title, pages, author, needs_ocr } = read.document;
  const document = { type, ...(pages !== undefined ? { pages } : {}), ...(author !== undefined ? { author } : {}), ...(needs_ocr ? { needs_ocr } : {}) };
  // The same fields as a page's, filled where the file says: a reader of files gets no date or language.
  const meta = { byline: author ?? '', published_at: '', lang: '', site_name: '', excerpt: '', word_count: wordCount(markdown) };
  // No step ran on a file (its reader converts it whole), so `off` has nothing to switch off and the trace of
  // what the steps removed is empty: present, as `debug` promises, rather than missing.
  const trace = input.debug ? { trace: [] as RuleTrace[] } : {};
  return { markdown, title, ...meta, source: 'document' as const, bytes: Buffer.byteLength(markdown), ...base, document, ...trace };
}
