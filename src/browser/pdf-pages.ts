// The real page count of a produced PDF, read by a PDF parser rather than guessed from the layout.
// pdf-lib (~0.2 s of CPU to load) only when a PDF is made, not at every worker's start-up.

export async function pdfPageCount(bytes: Uint8Array): Promise<number> {
  const { PDFDocument } = await import('./pdf-lib.js');
  const doc = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
  return doc.getPageCount();
}
