// A fetched response → Markdown: the kind is sniffed from the bytes, then the matching reader runs.
// HTML (a page served with a download's headers) is handed back for the page pipeline.
import { ToolError } from '../../errors.js';
import type { DocumentText } from './document-text.js';
import { readDocx } from './docx.js';
import { readPdf, type PdfOptions } from './pdf/read-pdf.js';
import { sniffDocument } from './sniff.js';
import { readCsv, readXlsx } from './spreadsheet.js';
import { readJson, readText } from './text-file.js';
import { readXml } from './xml-feed.js';

export type DocumentOptions = PdfOptions;

export type ReadResult = { kind: 'document'; document: DocumentText } | { kind: 'html'; html: string };

export async function readDocument(bytes: Uint8Array, contentType: string | undefined, url: string, opts: DocumentOptions = {}): Promise<ReadResult> {
  const sniffed = sniffDocument(bytes, contentType, url);
  const doc = (document: DocumentText): ReadResult => ({ kind: 'document', document });
  switch (sniffed.kind) {
    case 'pdf':
      return doc(await readPdf(bytes, opts));
    case 'docx':
      return doc(await readDocx(bytes));
    case 'xlsx':
      return doc(await readXlsx(bytes));
    case 'csv':
      return doc(readCsv(bytes));
    case 'json':
      return doc(readJson(bytes));
    case 'xml':
      return doc(readXml(bytes));
    case 'text':
      return doc(readText(bytes));
    case 'html':
      return { kind: 'html', html: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') };
    case 'unsupported':
      throw new ToolError(`${url} is ${sniffed.what}, not a page or a document this tool reads (PDF, DOCX, XLSX, CSV, text, JSON, XML).`, 'input');
  }
}
