// A fetched document → what browser.markdown answers with, in one step that runs in an extraction worker:
// the file is sniffed and read (pdf.js, mammoth, the spreadsheet and text readers), and a page served with a
// file's headers goes through the page conversion. Only plain data goes in and comes out (no signal: a
// caller who gives up has the worker stopped).
import { htmlToMarkdown, type MarkdownContent, type MarkdownResult } from '../markdown.js';
import type { DocumentText } from './document-text.js';
import { readDocument, type DocumentOptions } from './read-document.js';

export interface DocumentJob {
  bytes: Uint8Array;
  contentType: string | undefined;
  url: string;
  options: Omit<DocumentOptions, 'signal'>;
  content: MarkdownContent;
}

export type ConvertedDocument = { kind: 'document'; document: DocumentText } | { kind: 'page'; page: MarkdownResult };

export async function convertDocument(job: DocumentJob): Promise<ConvertedDocument> {
  const read = await readDocument(job.bytes, job.contentType, job.url, job.options);
  // A page served with a file's headers: the page pipeline's conversion (scripts do not run).
  if (read.kind === 'html') return { kind: 'page', page: htmlToMarkdown(read.html, '', job.content) };
  return read;
}
