// Chromium fills a header or footer's `totalPages` element with the whole document's page count, even when
// page_ranges prints only a few of them ("Page 1 of 407" on a 3-page file). The count that is true for the
// file handed back is the number of pages printed: once that is known, the templates carry it as text.

/** Whether a header/footer template asks Chromium for the total page count. */
export function usesTotalPages(template: string | undefined): boolean {
  return template !== undefined && /totalPages/.test(template);
}

/** The template with every `totalPages` element's content set to `total` (and no longer filled by Chromium). */
export async function withTotalPages(template: string, total: number): Promise<string> {
  // linkedom loads with the first such print, not with the tool's module.
  const { parseHTML } = await import('linkedom');
  const { document } = parseHTML(`<!doctype html><html><body>${template}</body></html>`);
  for (const el of Array.from(document.querySelectorAll('.totalPages'))) {
    el.classList.remove('totalPages');
    el.textContent = String(total);
  }
  return document.body.innerHTML;
}
