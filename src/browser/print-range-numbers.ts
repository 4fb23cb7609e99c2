// page_ranges with a header or footer: Chromium numbers each printed page by its place in the whole
// document ("Page 2 of 5" on the first page of a 3-page file). The file handed back is numbered in itself,
// "Page 1 of 3": the range is printed without header and footer, the header and footer are printed on as
// many blank pages of the same size (where Chromium's own numbering is the file's; one such print per page
// size in the file), and each of those is laid over its page. Both are vector prints, so the numbers stay text.
import type { Page } from 'playwright-core';

export interface RangeTemplates {
  header: string;
  footer: string;
  /** The same margins as the content's print, so the header and footer sit where Chromium puts them. */
  margin: { top: string; right: string; bottom: string; left: string };
  /** The page's own title and URL, which the blank pages would otherwise put in title and url elements. */
  title: string;
  url: string;
}

/** The content PDF (printed without header/footer) with the templates drawn on, numbered 1..n of n. Replaces the page's content. */
export async function overlayRangeNumbers(page: Page, content: Uint8Array, t: RangeTemplates): Promise<Buffer> {
  const { PDFDocument } = await import('./pdf-lib.js');
  const doc = await PDFDocument.load(content, { updateMetadata: false });
  const pages = doc.getPages();
  const [header, footer] = await Promise.all([t.header, t.footer].map((tpl) => withPageFacts(tpl, t.title, t.url)));
  // Pages may differ in size (CSS named pages with prefer_css_page_size: A4 beside landscape Letter). A
  // header and footer laid out for one size and stretched onto another land in the wrong place, so each
  // size gets its own overlay print. Each of those has all n sheets, so that its page i says "i of n";
  // page i takes its sheet from the print of its own size.
  const bySize = new Map<string, { width: number; height: number; indices: number[] }>();
  pages.forEach((p, i) => {
    const box = p.getMediaBox();
    const key = `${box.width.toFixed(2)}x${box.height.toFixed(2)}`;
    const group = bySize.get(key) ?? { width: box.width, height: box.height, indices: [] };
    group.indices.push(i);
    bySize.set(key, group);
  });
  // The task's own page, once the content is printed (the pool closes any other page a task opens, and
  // resets this one for the next task).
  // An empty block's page break makes no page: each sheet holds one pixel of nothing.
  const sheets = '<div style="height:1px;break-after:page"></div>'.repeat(pages.length - 1);
  await page.setContent(`<!doctype html><html><head><style>html,body{margin:0}</style></head><body>${sheets}<div style="height:1px"></div></body></html>`);
  for (const { width, height, indices } of bySize.values()) {
    const overlay = await page.pdf({
      width: `${width / 72}in`,
      height: `${height / 72}in`,
      margin: t.margin,
      displayHeaderFooter: true,
      headerTemplate: header,
      footerTemplate: footer,
    });
    const embedded = await doc.embedPdf(overlay, indices);
    indices.forEach((pageIndex, k) => {
      const target = pages[pageIndex]!;
      const box = target.getMediaBox();
      const sheet = embedded[k];
      if (sheet) target.drawPage(sheet, { x: box.x, y: box.y, width: box.width, height: box.height });
    });
  }
  return Buffer.from(await doc.save());
}

/** title and url elements carry the printed page's, as text (Chromium would fill them from the blank page). */
async function withPageFacts(template: string, title: string, url: string): Promise<string> {
  // linkedom loads with the first such print, not with the tool's module.
  const { parseHTML } = await import('linkedom');
  const { document } = parseHTML(`<!doctype html><html><body>${template}</body></html>`);
  for (const [cls, text] of [
    ['title', title],
    ['url', url],
  ] as const) {
    for (const el of Array.from(document.querySelectorAll(`.${cls}`))) {
      el.classList.remove(cls);
      el.textContent = text;
    }
  }
  return document.body.innerHTML;
}
