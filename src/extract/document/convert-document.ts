// A fetched document → what browser.markdown answers with, in one step that runs in an extraction worker:
// the file is sniffed and read (pdf.js, mammoth, the spreadsheet and text readers), and a page served with a
// file's headers goes through the page conversion, with the caller's `off` and `debug` (the files have no
// steps to switch off or trace) and its links resolved against the URL it was fetched from. Only plain data goes in and comes out (no signal: a caller who gives up has
// the worker stopped).
import { htmlToMarkdown, type ExtractOptions, type MarkdownContent, type MarkdownResult } from '../markdown.js';
import type { DocumentText } from './document-text.js';
import { readDocument, type DocumentOptions } from './read-document.js';

export interface DocumentJob {
  bytes: Uint8Array;
  contentType: string | undefined;
  url: string;
  options: Omit<DocumentOptions, 'signal'>;
  content: MarkdownContent;
  /** browser.content's view: a page as its own HTML, a document's Markdown rendered as HTML. */
  view?: 'markdown' | 'html';
  /** Steps switched off and the trace, for a page served as a file (the page conversion's steps). */
  extract?: Pick<ExtractOptions, 'off' | 'debug'>;
}

export type ConvertedDocument =
  { kind: 'document'; document: DocumentText; html?: string } | { kind: 'page'; page: MarkdownResult } | { kind: 'html'; html: string };

export async function convertDocument(job: DocumentJob): Promise<ConvertedDocument> {
  const read = await readDocument(job.bytes, job.contentType, job.url, job.options);
  if (read.kind === 'html') {
    if (job.view === 'html') return read;
    // A page served with a file's headers: the page pipeline's conversion (scripts do not run). Its links are
    // as the server wrote them, so relative ones are resolved against the file's final URL (or its <base>).
    return { kind: 'page', page: htmlToMarkdown(read.html, '', job.content, { ...job.extract, baseUrl: job.url }) };
  }
  if (job.view === 'html') return { ...read, html: await documentHtml(read.document) };
  return read;
}

/**
 * A document as a small HTML page: its Markdown rendered by markdown-it (MIT) with raw HTML off, so text
 * from the file is always text, never markup.
 */
async function documentHtml(doc: DocumentText): Promise<string> {
  const { default: MarkdownIt } = await import('markdown-it');
  const body = new MarkdownIt({ html: false, linkify: false }).render(doc.markdown);
  const title = doc.title.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
}
