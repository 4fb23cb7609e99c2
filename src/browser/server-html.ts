// The HTML the server sent for the page opened, kept from its network response: browser.markdown's fallback
// when a page script blanked the page, and what LoadedPage shows when the page a script sent the tab to
// cannot be read.
// Why it is read before the page sees it: the browser drops a response's body as soon as another document
// commits in the frame, and a page may leave right after load (a meta refresh of 0 s, location.replace in a
// load handler). Read once the response had finished (Playwright's response.body()), the body lost that
// race about one time in three; and once a navigation has started, DevTools holds every call that the
// renderer answers (the body, an evaluate) until the new document commits, so holding the navigation does
// not help either. So the first main-frame document response is paused (DevTools Fetch, response stage,
// documents only; handled in the browser process), its body read, and only then handed to the page.
// Interception ends right after (or when the page's response is not HTML), so later documents and the
// page's own subresources are never paused. The cost: the page starts parsing once its HTML has arrived in
// full rather than as it streams in (about a quarter of a rendered crawl's throughput), so only a tool that
// declares keepsServerHtml pays it (define-browser-tool.ts); the others get browserCopy(), read as the page
// commits, which a navigation right after load may drop.
import type { CDPSession, Page, Response } from 'playwright-core';
import { cdpSession } from './cdp.js';

/** A server's HTML larger than this is not kept. */
export const SERVER_HTML_MAX_BYTES = 8 * 1024 * 1024;
/** Longest the page's response is held for its body to be read (a server still streaming it is let through). */
export const KEEP_WAIT_MS = 10_000;

export type ServerHtml = () => Promise<string | null>;

export interface ServerHtmlKeeper {
  /**
   * The kept HTML of the page's first response (the one the page opened with), given that response; falls
   * back to asking the browser for its body (a response handled elsewhere, e.g. fulfilled by a route).
   * Undefined for a response that is not HTML or is too large.
   */
  keep(response: Response | null): ServerHtml | undefined;
  /** Stops pausing documents (again: a no-op). */
  release(): Promise<void>;
}

interface PausedResponse {
  requestId: string;
  frameId: string;
  responseStatusCode?: number;
  responseHeaders?: { name: string; value: string }[];
}

/** Starts keeping the HTML of the page's next main-frame document; call before opening the page. */
export async function keepServerHtml(page: Page): Promise<ServerHtmlKeeper> {
  let cdp: CDPSession | undefined;
  let mainFrame: string | undefined;
  let released = false;
  /** Undefined until the main document's response came (null: it was not kept). */
  let kept: string | null | undefined;
  const go = (requestId: string) => cdp?.send('Fetch.continueRequest', { requestId }).catch(() => undefined);
  const release = async () => {
    if (released) return;
    released = true;
    // Responses paused before the domain is off are let through by onPaused.
    await cdp?.send('Fetch.disable').catch(() => undefined);
    cdp?.off('Fetch.requestPaused', onPaused);
  };
  const onPaused = async (event: PausedResponse) => {
    const status = event.responseStatusCode ?? 0;
    // A frame's document, a redirect hop, or after the page's own: let it through.
    if (released || kept !== undefined || event.frameId !== mainFrame || (status >= 300 && status < 400)) return void go(event.requestId);
    const header = (name: string) => event.responseHeaders?.find((h) => h.name.toLowerCase() === name)?.value ?? '';
    kept = null;
    if (/html/i.test(header('content-type')) && Number(header('content-length') || 0) <= SERVER_HTML_MAX_BYTES) {
      kept = await readBody(cdp!, event.requestId);
    }
    await go(event.requestId);
    await release();
  };
  try {
    cdp = await cdpSession(page);
    cdp.on('Fetch.requestPaused', onPaused);
    const [tree] = await Promise.all([
      cdp.send('Page.getFrameTree'),
      cdp.send('Fetch.enable', { patterns: [{ resourceType: 'Document', requestStage: 'Response' }] }),
    ]);
    mainFrame = tree.frameTree.frame.id;
  } catch {
    // The tab went away: the opening fails on its own.
    await release();
  }
  return {
    keep(response) {
      const headers = response?.headers() ?? {};
      if (!response || !/html/i.test(headers['content-type'] ?? '') || Number(headers['content-length'] ?? 0) > SERVER_HTML_MAX_BYTES) {
        void release();
        return undefined;
      }
      if (typeof kept === 'string') {
        const html = kept;
        return () => Promise.resolve(html);
      }
      // Not seen here (fulfilled by a route, or the tab's DevTools session failed): the browser's copy.
      void release();
      return browserCopy(response);
    },
    release,
  };
}

/**
 * The browser's copy of the response's HTML, read from now on (undefined for a response that is not HTML or
 * is too large). Nothing is paused, but a navigation that commits before the read may drop the body (null).
 */
export function browserCopy(response: Response | null): ServerHtml | undefined {
  const headers = response?.headers() ?? {};
  if (!response || !/html/i.test(headers['content-type'] ?? '') || Number(headers['content-length'] ?? 0) > SERVER_HTML_MAX_BYTES) return undefined;
  const read = response.body().then(
    (body) => (body.length <= SERVER_HTML_MAX_BYTES ? body.toString('utf8') : null),
    // Gone already (the page navigated on while it loaded) or the tab closed: nothing to fall back to.
    () => null,
  );
  return () => read;
}

/** The paused response's body as text, or null (too large, not readable, or still streaming at the bound). */
async function readBody(cdp: CDPSession, requestId: string): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), KEEP_WAIT_MS);
  });
  try {
    const read = cdp.send('Fetch.getResponseBody', { requestId }).then(
      ({ body, base64Encoded }) => {
        const bytes = Buffer.from(body, base64Encoded ? 'base64' : 'utf8');
        return bytes.length <= SERVER_HTML_MAX_BYTES ? bytes.toString('utf8') : null;
      },
      () => null,
    );
    return await Promise.race([read, late]);
  } finally {
    clearTimeout(timer);
  }
}
