// The real page count of a produced PDF, read by a PDF parser rather than guessed from the layout.
import { PDFDocument } from 'pdf-lib';

export async function pdfPageCount(bytes: Uint8Array): Promise<number> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
  return doc.getPageCount();
}
