// browser.content's document path: a URL whose response is a file is fetched through the guard and read in
// an extraction worker like browser.markdown's, and answered as HTML: a page served with a file's headers as
// its own HTML (scripts do not run), a document (PDF, DOCX, XLSX, CSV, JSON, text, feed) as its extracted
// text rendered to HTML, instead of failing as a download.
import { ToolError } from '../errors.js';
import type { ToolContext } from '../registry/define-tool.js';
import { documentInWorker } from '../extract/markdown-pool.js';
import { fetchDocument } from './document-fetch.js';
import type { PageOptions } from './page-options.js';

/** Larger answers are refused rather than cut, as for a rendered page. */
const MAX_HTML_BYTES = 10_000_000;

export async function documentContent(ctx: ToolContext, input: PageOptions & { url: string }, timeoutMs: number) {
  const fetched = await fetchDocument(ctx, input, timeoutMs);
  const read = await documentInWorker(
    { bytes: fetched.body, contentType: fetched.headers['content-type'] ?? '', url: fetched.url, options: {}, content: 'full', view: 'html' },
    ctx.signal,
  );
  if (read.kind === 'page' || read.html === undefined) throw new Error('the HTML view of a document came back as Markdown');
  const html = read.html;
  const bytes = Buffer.byteLength(html);
  if (bytes > MAX_HTML_BYTES) throw new ToolError(`The document is ${bytes} bytes of HTML, more than the ${MAX_HTML_BYTES}-byte limit.`, 'input');
  const title = read.kind === 'document' ? read.document.title : (/<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1]?.trim() ?? '');
  return { html, title, bytes, final_url: fetched.url, status_code: fetched.status };
}
