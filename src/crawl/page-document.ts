// A plainly fetched page that is not HTML: a PDF, DOCX, XLSX, CSV, JSON or text file linked from a site is
// as much a page of it as its HTML. What the body is comes from its bytes (the header is only a hint:
// DOCX and XLSX types contain "xml", PDFs come as octet-stream), and a document is read to Markdown by
// browser.markdown's readers, in the extraction workers.
import { sniffDocument } from '../extract/document/sniff.js';
import type { ToolContext } from '../registry/define-tool.js';

/** html: read as a page (links, metadata, Markdown); document: read by the document readers; none: images, archives. */
export type PageBodyKind = 'html' | 'document' | 'none';

/** Types under which the crawler has always read a body as HTML (feeds and XML pages included). */
const HTML_TYPE = /html|xml/i;

export function pageBodyKind(bytes: Uint8Array, contentType: string, url: string): PageBodyKind {
  if (bytes.byteLength === 0) return 'none';
  const sniffed = sniffDocument(bytes, contentType, url);
  switch (sniffed.kind) {
    case 'pdf':
    case 'docx':
    case 'xlsx':
      return 'document';
    case 'unsupported':
      return 'none';
    case 'html':
      return 'html';
    default:
      // Text, JSON, CSV or XML bytes: under an HTML or XML type (or none) they are read as before, as a
      // page (an HTML fragment without <html> sniffs as text); under any other type, as the file they are.
      return contentType === '' || HTML_TYPE.test(contentType) ? 'html' : 'document';
  }
}

export interface PageDocument {
  markdown: string;
  title: string;
  /** A PDF's page count. */
  pages?: number;
}

export async function readPageDocument(ctx: ToolContext, bytes: Uint8Array, contentType: string, url: string): Promise<PageDocument> {
  // Off the event loop, like browser.markdown: pdf.js on a large PDF takes seconds of computation.
  const { documentInWorker } = await import('../extract/markdown-pool.js');
  const read = await documentInWorker({ bytes, contentType, url, options: {}, content: 'main' }, ctx.signal);
  if (read.kind === 'page') return { markdown: read.page.markdown, title: read.page.title };
  if (read.kind !== 'document') throw new Error('the Markdown view of a document came back as HTML');
  const { markdown, title, pages } = read.document;
  return { markdown, title, ...(pages !== undefined ? { pages } : {}) };
}
