// The bot-wall check every browser tool makes once its page has loaded and before it captures anything:
// a challenge, captcha or block page fails the task (BLOCKED_BY_SITE, refunded) instead of coming back as
// the page's content. The classifier is pure (src/extract/bot-wall/); this reads the page for it.
import type { Page, Response } from 'playwright-core';
import { ToolError } from '../errors.js';
import { assertNoBotWall, WALL_MAX_TEXT_CHARS } from '../extract/bot-wall/index.js';
import type { PageReader } from './loaded-page.js';
import type { OpenedPage } from './navigate.js';

/**
 * Counts the page's text outside scripts and styles, stopping past `limit`: walls are short, so a long page
 * is known to be content without serialising it (the cost of the check on an ordinary page).
 */
function visibleTextLength(limit: number): number {
  const skip = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);
  const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
  let total = 0;
  for (let node = walker.nextNode(); node !== null && total <= limit; node = walker.nextNode()) {
    if (node.parentElement && skip.has(node.parentElement.tagName)) continue;
    total += (node.nodeValue ?? '').replace(/\s+/g, ' ').length;
  }
  return total;
}

/** `page`: the tab, or (once it has loaded) its LoadedPage, whose reads survive a script navigating. */
export async function checkBotWall(page: PageReader, opened: OpenedPage): Promise<void> {
  if (opened.status !== 429) {
    const length = await page.evaluate(visibleTextLength, WALL_MAX_TEXT_CHARS);
    if (length > WALL_MAX_TEXT_CHARS) return;
  }
  assertNoBotWall(opened.url, await page.evaluate(serializedDom, undefined), { status: opened.status, headers: opened.headers });
}

/**
 * For a tool that reads the page's whole HTML anyway (site.page's rendered page): the HTML with its doctype,
 * as documentHtml gives it, judged for a wall from that same read. One round trip to the page instead of
 * the check's one or two plus the tool's own: under load each costs tens of ms of a page's time in its slot.
 */
export async function readHtmlCheckingBotWall(page: PageReader, opened: OpenedPage): Promise<string> {
  const { html, textLength } = await page.evaluate(htmlAndTextLength, WALL_MAX_TEXT_CHARS);
  if (opened.status === 429 || textLength <= WALL_MAX_TEXT_CHARS) assertNoBotWall(opened.url, html, { status: opened.status, headers: opened.headers });
  return html;
}

/** documentHtml and visibleTextLength in one function (serialised into the page: it cannot call them). */
function htmlAndTextLength(limit: number): { html: string; textLength: number } {
  const skip = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);
  const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_TEXT);
  let textLength = 0;
  for (let node = walker.nextNode(); node !== null && textLength <= limit; node = walker.nextNode()) {
    if (node.parentElement && skip.has(node.parentElement.tagName)) continue;
    textLength += (node.nodeValue ?? '').replace(/\s+/g, ' ').length;
  }
  const doctype = document.doctype ? new XMLSerializer().serializeToString(document.doctype) : '';
  return { html: doctype + (document.documentElement ? document.documentElement.outerHTML : ''), textLength };
}

/**
 * The DOM as HTML, read in the page's own world: page.content() runs in Playwright's utility world, whose
 * first use on a page injects Playwright's script (tens of ms of CPU per task on a short page).
 */
function serializedDom(): string {
  return document.documentElement.outerHTML;
}

/**
 * Remembers the main document's last response, so that a page that failed to get ready (a wait_for selector
 * that never appeared) can still be judged: a wall never shows the element the caller waits for, and
 * "BLOCKED_BY_SITE" tells the caller more than "no element matched".
 */
export function watchMainResponse(page: Page): { last(): OpenedPage | undefined; stop(): void } {
  let last: OpenedPage | undefined;
  const onResponse = (res: Response) => {
    const req = res.request();
    if (!req.isNavigationRequest() || req.frame() !== page.mainFrame()) return;
    const headers = res.headers();
    last = { url: res.url(), status: res.status(), contentType: headers['content-type'] ?? null, headers };
  };
  page.on('response', onResponse);
  // Tabs are reused between tasks: the listener goes with the task.
  return { last: () => last, stop: () => void page.off('response', onResponse) };
}

/** After the page failed to get ready: throws BLOCKED_BY_SITE if what is on screen is a wall (else returns). */
export async function checkBotWallAfterFailure(page: Page, response: OpenedPage | undefined): Promise<void> {
  if (!response) return;
  try {
    await checkBotWall(page, { ...response, url: page.url() });
  } catch (err) {
    if (err instanceof ToolError && err.errorCode !== undefined) throw err;
    // The page could not be read (closed, navigating): the original failure stands.
  }
}
