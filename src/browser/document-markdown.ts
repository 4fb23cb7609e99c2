// browser.markdown's document path: fetch the file through the guard, sniff and read it, and answer in the
// tool's own shape (source 'document', plus what is known about the file).
import { ToolError } from '../errors.js';
import { readDocument } from '../extract/document/read-document.js';
import type { ToolContext } from '../registry/define-tool.js';
import { fetchDocument } from './document-fetch.js';
import { htmlToMarkdown } from '../extract/markdown.js';
import { wordCount } from '../extract/metadata.js';
import type { PageOptions } from './page-options.js';

export interface DocumentMarkdownInput extends PageOptions {
  url: string;
  content: 'main' | 'full';
  pages?: string | undefined;
  page_breaks: boolean;
}

export async function documentMarkdown(ctx: ToolContext, input: DocumentMarkdownInput, timeoutMs: number) {
  const started = Date.now();
  const fetched = await fetchDocument(ctx, input, timeoutMs);
  if (fetched.status < 200 || fetched.status >= 300)
    throw new ToolError(`${fetched.url} answered HTTP ${fetched.status}; there is no document to read.`, 'input');
  const contentType = fetched.headers['content-type'] ?? '';
  const read = await readDocument(fetched.body, contentType, fetched.url, {
    pages: input.pages,
    pageBreaks: input.page_breaks,
    // 'full' keeps what 'main' drops from a PDF: running headers, footers and page numbers.
    keepRunningLines: input.content === 'full',
    signal: ctx.signal,
  });
  ctx.log.debug('document read', { url: fetched.url, bytes: fetched.body.length, ms: Date.now() - started });
  const base = { final_url: fetched.url, status_code: fetched.status };
  if (read.kind === 'html') {
    // A page served with a file's headers: the page pipeline's conversion (scripts do not run).
    const result = htmlToMarkdown(read.html, '', input.content);
    return { ...result, bytes: Buffer.byteLength(result.markdown), ...base };
  }
  const { type, markdown, title, pages, author, needs_ocr } = read.document;
  const document = { type, ...(pages !== undefined ? { pages } : {}), ...(author !== undefined ? { author } : {}), ...(needs_ocr ? { needs_ocr } : {}) };
  // The same fields as a page's, filled where the file says: a reader of files gets no date or language.
  const meta = { byline: author ?? '', published_at: '', lang: '', site_name: '', excerpt: '', word_count: wordCount(markdown) };
  return { markdown, title, ...meta, source: 'document' as const, bytes: Buffer.byteLength(markdown), ...base, document };
}
