// Real documents built at test time: DOCX and XLSX packages written as Office Open XML (zipped with
// fflate), PDFs drawn with pdf-lib (standard fonts, so their text layer is exact) or printed by Chromium.
import { zipSync, strToU8 } from 'fflate';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export type DocxBlock =
  { heading: 1 | 2; text: string } | { paragraph: string; link?: { text: string; href: string } } | { bullets: string[] } | { table: string[][] };

/** A Word document with real heading styles, a bulleted list (numbering part), a table and a hyperlink. */
export function makeDocx(blocks: DocxBlock[]): Uint8Array {
  const rels: string[] = [];
  const body = blocks
    .map((b) => {
      if ('heading' in b) return `<w:p><w:pPr><w:pStyle w:val="Heading${b.heading}"/></w:pPr><w:r><w:t>${esc(b.text)}</w:t></w:r></w:p>`;
      if ('paragraph' in b) {
        let link = '';
        if (b.link) {
          const id = `rIdLink${rels.length + 1}`;
          rels.push(
            `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="${esc(b.link.href)}" TargetMode="External"/>`,
          );
          link = `<w:hyperlink r:id="${id}"><w:r><w:t>${esc(b.link.text)}</w:t></w:r></w:hyperlink>`;
        }
        return `<w:p><w:r><w:t xml:space="preserve">${esc(b.paragraph)}</w:t></w:r>${link}</w:p>`;
      }
      if ('bullets' in b)
        return b.bullets
          .map(
            (t) =>
              `<w:p><w:pPr><w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>${esc(t)}</w:t></w:r></w:p>`,
          )
          .join('');
      const rows = b.table.map((r) => `<w:tr>${r.map((c) => `<w:tc><w:p><w:r><w:t>${esc(c)}</w:t></w:r></w:p></w:tc>`).join('')}</w:tr>`).join('');
      return `<w:tbl><w:tblPr/>${rows}</w:tbl>`;
    })
    .join('');
  const ns =
    'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  const style = (id: string, name: string) => `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/></w:style>`;
  return zipSync({
    '[Content_Types].xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/><Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/></Types>`,
    ),
    '_rels/.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    ),
    'word/_rels/document.xml.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdStyles" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/><Relationship Id="rIdNumbering" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/>${rels.join('')}</Relationships>`,
    ),
    'word/styles.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><w:styles ${ns}>${style('Heading1', 'heading 1')}${style('Heading2', 'heading 2')}${style('ListParagraph', 'List Paragraph')}</w:styles>`,
    ),
    'word/numbering.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><w:numbering ${ns}><w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num></w:numbering>`,
    ),
    'word/document.xml': strToU8(`<?xml version="1.0" encoding="UTF-8"?><w:document ${ns}><w:body>${body}</w:body></w:document>`),
  });
}

/** An XLSX workbook whose sheets hold strings (shared strings) and numbers. */
export function makeXlsx(sheets: { name: string; rows: (string | number)[][] }[]): Uint8Array {
  const strings: string[] = [];
  const index = (s: string) => {
    const i = strings.indexOf(s);
    return i >= 0 ? i : strings.push(s) - 1;
  };
  const col = (i: number) => String.fromCharCode(65 + i);
  const files: Record<string, Uint8Array> = {};
  sheets.forEach((sheet, n) => {
    const rows = sheet.rows
      .map(
        (r, ri) =>
          `<row r="${ri + 1}">${r.map((v, ci) => (typeof v === 'number' ? `<c r="${col(ci)}${ri + 1}"><v>${v}</v></c>` : `<c r="${col(ci)}${ri + 1}" t="s"><v>${index(v)}</v></c>`)).join('')}</row>`,
      )
      .join('');
    files[`xl/worksheets/sheet${n + 1}.xml`] = strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`,
    );
  });
  const sheetList = sheets.map((s, n) => `<sheet name="${esc(s.name)}" sheetId="${n + 1}" r:id="rId${n + 1}"/>`).join('');
  const sheetRels = sheets
    .map(
      (_, n) =>
        `<Relationship Id="rId${n + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${n + 1}.xml"/>`,
    )
    .join('');
  const overrides = sheets
    .map(
      (_, n) =>
        `<Override PartName="/xl/worksheets/sheet${n + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
    )
    .join('');
  return zipSync({
    '[Content_Types].xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>${overrides}</Types>`,
    ),
    '_rels/.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    'xl/workbook.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${sheetList}</sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheetRels}<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    ),
    'xl/sharedStrings.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((s) => `<si><t>${esc(s)}</t></si>`).join('')}</sst>`,
    ),
    ...files,
  });
}

export interface PdfPageSpec {
  heading?: string;
  paragraphs: string[];
}

/**
 * A Letter-size PDF drawn with pdf-lib: a running header and a "Page N" footer on every page, an 18 pt bold
 * heading and 11 pt body lines wrapped at ~80 characters.
 */
export async function makeTextPdf(pages: PdfPageSpec[], meta: { title?: string; author?: string } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.TimesRoman);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  if (meta.title) doc.setTitle(meta.title);
  if (meta.author) doc.setAuthor(meta.author);
  pages.forEach((spec, i) => {
    const page = doc.addPage([612, 792]);
    page.drawText('Annual Report of the Example Society', { x: 72, y: 750, size: 9, font: regular });
    page.drawText(`Page ${i + 1}`, { x: 290, y: 40, size: 9, font: regular });
    let y = 700;
    if (spec.heading) {
      page.drawText(spec.heading, { x: 72, y, size: 18, font: bold });
      y -= 34;
    }
    for (const paragraph of spec.paragraphs) {
      const words = paragraph.split(' ');
      let line = '';
      for (const word of words) {
        if ((line + ' ' + word).trim().length > 80) {
          page.drawText(line, { x: 72, y, size: 11, font: regular });
          y -= 14;
          line = word;
        } else {
          line = (line + ' ' + word).trim();
        }
      }
      if (line) page.drawText(line, { x: 72, y, size: 11, font: regular });
      y -= 26;
    }
  });
  return doc.save();
}

/** A PDF whose only page content is a drawn shape: no text layer, as a scan would be. */
export async function makeImageOnlyPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  page.drawRectangle({ x: 72, y: 300, width: 400, height: 300, color: rgb(0.2, 0.2, 0.2) });
  return doc.save();
}
