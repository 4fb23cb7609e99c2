// The real page count of a produced PDF, read by a PDF parser rather than guessed from the layout.
// pdf-lib (~0.2 s of CPU to load) only when a PDF is made, not at every worker's start-up.
import { createRequire } from 'node:module';
import type * as PdfLib from 'pdf-lib';

const require = createRequire(import.meta.url);

export async function pdfPageCount(bytes: Uint8Array): Promise<number> {
  const { PDFDocument } = require('pdf-lib') as typeof PdfLib;
  const doc = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
  return doc.getPageCount();
}
