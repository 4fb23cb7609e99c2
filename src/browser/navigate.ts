// Opens the task's page (a URL, or HTML rendered at about:blank) and waits the way the caller asked,
// all within the task's time budget: only the first response is required; waiting for the load event or
// for network idle gives up at its cap and the page is used as rendered so far.
import type { Page, Response } from 'playwright-core';
import type { Logger } from '../logger.js';
import { ToolError } from '../errors.js';
import { BlockedTargetError } from '../net/errors.js';
import { PROXY_VERDICT_HEADER, type GuardedProxy } from './guarded-proxy.js';
import type { WaitMode } from './input-schemas.js';
import { navigationError } from './page-errors.js';
import { browserCopy, keepServerHtml, type ServerHtmlKeeper } from './server-html.js';

/** The first response (headers) must arrive within this. */
export const NAVIGATION_TIMEOUT_MS = 20_000;
/** Longest wait for DOMContentLoaded / load after the first response. */
export const LOAD_WAIT_MS = 15_000;
/** Longest wait for network idle after load (wait=idle). */
export const IDLE_WAIT_MS = 5_000;

export type PageSource = { url: string; html?: undefined } | { html: string; url?: undefined };

export class RenderBudget {
  readonly deadline: number;
  readonly start: number;
  readonly timeoutMs: number;
  private readonly captureReserveMs: number;

  /** `timeoutMs` is the tool's limit; a little is kept back for storing the result. */
  constructor(timeoutMs: number, start = Date.now()) {
    this.start = start;
    this.timeoutMs = timeoutMs;
    this.deadline = start + timeoutMs - Math.min(2_000, timeoutMs / 10);
    this.captureReserveMs = Math.min(15_000, timeoutMs / 4);
  }

  /** Time left for getting the page ready, never more than `cap`. */
  forLoading(cap: number): number {
    return Math.max(1, Math.min(cap, this.deadline - this.captureReserveMs - Date.now()));
  }

  /** Time left for everything (capturing included). */
  left(): number {
    return Math.max(1, this.deadline - Date.now());
  }
}

export interface OpenedPage {
  /** The page's URL after redirects ('about:blank' for html). */
  url: string;
  /** HTTP status of the main document (null for html). */
  status: number | null;
  /** The main document's Content-Type header, as the server sent it (null for html or none). */
  contentType: string | null;
  /** The main document's response headers (names in lower case; empty for html). */
  headers: Record<string, string>;
  /**
   * The HTML the server sent for the main document, before any script ran (null for html input, a body that
   * is not HTML or too large, or, unless keepServerHtml was asked for, one a navigation right after load
   * dropped first): the fallback when a page script blanked the page (src/browser/server-html.ts).
   */
  serverHtml?: () => Promise<string | null>;
  /**
   * The main frame's response for a document that replaced the page opened before openPage returned (a meta
   * refresh of 0 s, a script in a load handler): the page opened is still the one described above.
   */
  replacedBy?: Response;
  /** Stops pausing document responses for serverHtml (done once it is read; call when the task ends). */
  stopKeeping?: () => Promise<void>;
}

const RENDERABLE = new Set(['http:', 'https:', 'about:']);

const LIFECYCLE: Record<WaitMode, 'domcontentloaded' | 'load'> = { dom: 'domcontentloaded', load: 'load', idle: 'load' };

/** What the caller asked to wait for besides the lifecycle event. */
export interface ReadyOptions {
  /** A CSS selector that must be attached to the DOM before the page counts as ready. */
  waitFor?: string | undefined;
  /** Extra settle time after everything else, in ms. */
  delayMs?: number | undefined;
}

/** How the page is opened: what the caller asked to wait for, and what the tool needs kept. */
export interface OpenOptions extends ReadyOptions {
  /**
   * Pause the page's first document response until its HTML is read, so that serverHtml survives a script
   * that navigates right after load (src/browser/server-html.ts). The page then parses only once all of its
   * HTML has arrived: only for a tool that reads serverHtml (BrowserToolDefinition.keepsServerHtml).
   */
  keepServerHtml?: boolean;
}

export async function openPage(
  page: Page,
  source: PageSource,
  wait: WaitMode,
  budget: RenderBudget,
  proxy: GuardedProxy | undefined,
  log: Logger,
  ready: OpenOptions = {},
): Promise<OpenedPage> {
  let response: Response | null = null;
  // A later main-frame navigation (a script, a meta refresh) the proxy refused would otherwise leave the
  // proxy's refusal as the page to render: remember it and fail the task instead.
  let refusedLater: string | undefined;
  let opening = true;
  let replacedBy: Response | undefined;
  const onResponse = (res: Response) => {
    const req = res.request();
    if (!req.isNavigationRequest() || req.frame() !== page.mainFrame()) return;
    if (res.headers()[PROXY_VERDICT_HEADER]) refusedLater = res.url();
    else if (!opening) replacedBy = res;
  };
  page.on('response', onResponse);
  let serverHtml: OpenedPage['serverHtml'];
  // For a tool that reads it, the page's own response is paused until its HTML is read: no navigation can
  // drop it first. Other tools get the browser's copy, and the page streams in as the server sends it.
  const keeper: ServerHtmlKeeper | undefined = source.url !== undefined && ready.keepServerHtml ? await keepServerHtml(page) : undefined;
  try {
    response = await navigate(page, source, budget, proxy);
    opening = false;
    serverHtml = keeper ? keeper.keep(response) : browserCopy(response);
    await settle(page, LIFECYCLE[wait], budget.forLoading(LOAD_WAIT_MS), log);
    if (wait === 'idle') await settle(page, 'networkidle', budget.forLoading(IDLE_WAIT_MS), log);
    if (ready.waitFor !== undefined) await waitForSelector(page, ready.waitFor, budget);
    if (ready.delayMs) await page.waitForTimeout(Math.min(ready.delayMs, budget.forLoading(ready.delayMs)));
  } catch (err) {
    await keeper?.release();
    throw err;
  } finally {
    page.off('response', onResponse);
  }
  if (refusedLater !== undefined) {
    await keeper?.release();
    throw navigationError(new Error('proxy refused'), refusedLater, proxy);
  }

  // The page opened, not the one that replaced it (its URL is the response's: no pushState came before).
  const url = replacedBy && response ? response.url() : page.url();
  const protocol = page.url().slice(0, page.url().indexOf(':') + 1);
  // Chromium itself refuses file:, chrome: and friends from web content; this makes sure of it. (HTML
  // input stays at about:blank unless its script navigates, which then went through the proxy.)
  if (!RENDERABLE.has(protocol)) {
    await keeper?.release();
    throw new BlockedTargetError(`Blocked target: the page navigated to a ${protocol} URL; only http and https pages are rendered.`, page.url());
  }
  const headers = response?.headers() ?? {};
  return {
    url,
    status: response?.status() ?? null,
    contentType: headers['content-type'] ?? null,
    headers,
    ...(serverHtml ? { serverHtml } : {}),
    ...(replacedBy ? { replacedBy } : {}),
    ...(keeper ? { stopKeeping: keeper.release } : {}),
  };
}

/** Opens the url (refusing a main document the proxy refused) or sets the html; returns the first response. */
async function navigate(page: Page, source: PageSource, budget: RenderBudget, proxy: GuardedProxy | undefined): Promise<Response | null> {
  let response: Response | null = null;
  if (source.url !== undefined) {
    // Remember the last main-frame request that failed, to explain a failure on a redirect hop.
    let failedUrl = source.url;
    const onFailed = (req: { url(): string; isNavigationRequest(): boolean; frame(): unknown }) => {
      if (req.isNavigationRequest() && req.frame() === page.mainFrame()) failedUrl = req.url();
    };
    page.on('requestfailed', onFailed);
    try {
      response = await page.goto(source.url, { waitUntil: 'commit', timeout: budget.forLoading(NAVIGATION_TIMEOUT_MS) });
    } catch (err) {
      throw navigationError(err, failedUrl, proxy);
    } finally {
      page.off('requestfailed', onFailed);
    }
    const verdict = response?.headers()[PROXY_VERDICT_HEADER];
    if (response && verdict) {
      const failed = response.url();
      throw navigationError(new Error(`proxy ${verdict}`), failed, proxy);
    }
  } else {
    // The fresh page is at about:blank, so relative URLs in the HTML resolve to nothing, and every
    // absolute one goes through the guarded proxy like any page's sub-resources.
    await page.setContent(source.html, { waitUntil: 'commit', timeout: budget.forLoading(NAVIGATION_TIMEOUT_MS) });
  }
  return response;
}

/** The selector must appear within what is left of the loading budget; otherwise the task fails saying so. */
async function waitForSelector(page: Page, selector: string, budget: RenderBudget): Promise<void> {
  const timeout = budget.forLoading(Number.POSITIVE_INFINITY);
  try {
    await page.waitForSelector(selector, { state: 'attached', timeout });
  } catch (err) {
    if ((err as Error).name !== 'TimeoutError') throw err;
    // Say how long the page was waited for in all and what bounded it: the selector's own share alone
    // (what is left after navigating, minus the time kept for rendering) misleads ("1.1 s" of a 3 s budget).
    const seconds = (ms: number) => Math.round(ms / 100) / 10;
    throw new ToolError(
      `wait_for: no element matched "${selector.slice(0, 200)}" within ${seconds(Date.now() - budget.start)} s of the page's ${seconds(budget.timeoutMs)} s budget ` +
        `(timeout_ms, or the tool's limit; part of it is kept for producing the result).`,
      'permanent',
    );
  }
}

async function settle(page: Page, state: 'domcontentloaded' | 'load' | 'networkidle', timeout: number, log: Logger): Promise<void> {
  try {
    await page.waitForLoadState(state, { timeout });
  } catch (err) {
    if ((err as Error).name !== 'TimeoutError') throw err;
    log.debug('page not settled in time; using it as rendered so far', { state, timeoutMs: timeout });
  }
}
