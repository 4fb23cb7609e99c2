// readPdf on PDFs drawn with pdf-lib: pages whose /Rotate turns them are read as shown; text set sideways
// on a page (a margin stamp) is not part of the reading text.
import { PDFDocument, StandardFonts, degrees } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { readPdf } from '../../src/extract/document/pdf/read-pdf.js';

async function pdfWith(pageRotation: number, textRotation: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  const page = doc.addPage([612, 792]);
  page.setRotation(degrees(pageRotation));
  page.drawText('Turned page text reads upright', { x: 300, y: 300, size: 14, font, rotate: degrees(textRotation) });
  if (pageRotation === 0) page.drawText('Body text that reads normally on the page.', { x: 72, y: 700, size: 12, font });
  return doc.save();
}

describe('readPdf page orientation', () => {
  it('reads a page turned by /Rotate whose text is upright as shown', async () => {
    for (const angle of [90, 270]) {
      const doc = await readPdf(await pdfWith(angle, angle));
      expect(doc.needs_ocr).toBeUndefined();
      expect(doc.markdown).toContain('Turned page text reads upright');
    }
  });

  it('leaves out text set sideways on an upright page', async () => {
    const doc = await readPdf(await pdfWith(0, 90));
    expect(doc.markdown).toContain('Body text that reads normally on the page.');
    expect(doc.markdown).not.toContain('Turned page');
  });
});
