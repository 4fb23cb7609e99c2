// Every read a browser tool makes of its page once the page has loaded goes through here, because a page
// script may navigate after load (location.href, location.replace, location.reload, a meta refresh, a form
// it submits): a read in flight then fails with "Execution context was destroyed", and a read that
// follows it may see a document still loading, or the network guard's refusal. A page that loaded is
// never a failed task. Which document is read (the last good one that loaded):
// - the last document the main frame committed, once loaded (waited for within SETTLE_MS and the task's
//   budget). Before a DOM-reading tool reads (hold()), page scripts are stopped and a navigation not yet
//   committed is cancelled, so nothing replaces the document while it is read (this also ends reload
//   loops); a read that a navigation still interrupts (a meta refresh needs no script) is made again on
//   the document that replaced it, up to MAX_READS times;
// - when that document is no page (the guard's refusal: the guard applies to every navigation, started by
//   a script or not; Chromium's error page; an HTTP error status), or reads keep failing, the page that
//   loaded is shown again, scripts off, and read: its kept copy (the HTML its server sent, or the caller's
//   HTML) with links resolved against its URL, else its entry in the tab's history (the browser may drop a
//   response's body as soon as the page navigates on). When neither brings it back, a refusal fails the
//   task as a refusal during load does; an error page is read as it is.
// A navigation after load to a page that loads (even a short notice) is followed: that page is the last
// good one. browser.markdown still prefers the opened page's server HTML when the notice is thin.
// Reads and the script stop go through DevTools (Runtime.evaluate), not page.evaluate: its first use on a
// document injects Playwright's utility script, a cost on every page of a rendered crawl.
import type { Frame, Page, Response } from 'playwright-core';
import { cdpSession, evaluateInPage } from './cdp.js';
import { isNavigationError, MAX_READS, type InPage, type PageReader } from './page-reads.js';
import { PROXY_VERDICT_HEADER } from './guarded-proxy.js';
import type { OpenedPage, RenderBudget } from './navigate.js';

/** Longest wait, per read, for a document a navigation brought to finish loading. */
export const SETTLE_MS = 5_000;

export { isNavigationError, MAX_READS, type InPage, type PageReader } from './page-reads.js';

export interface LoadedPageOptions {
  /** The lifecycle state the caller asked for (a document counts as loaded at it). */
  state: 'domcontentloaded' | 'load';
  budget: RenderBudget;
  /** The copy of the loaded page to show when its successor cannot be read (null: none). */
  kept: () => Promise<string | null>;
  /** The error for a page whose successor the guard refused and that has no kept copy. */
  refused: (url: string) => Error;
}

export class LoadedPage implements PageReader {
  private opened: OpenedPage;
  private readonly page: Page;
  private readonly options: LoadedPageOptions;
  private kept: () => Promise<string | null>;
  /** The main frame's last response since the baseline (a navigation after load). */
  private lastResponse: Response | undefined;
  /** Whether reads stop page scripts first (not before the caller's actions, which need them). */
  private stopping = false;
  /** What current says, fixed at the last read (a navigation after it does not change what was read). */
  private lastRead: OpenedPage | undefined;
  /** Whether scripts were stopped since the last navigation that interrupted a read. */
  private stopped = false;
  /** Set once the kept copy is what the tab shows. */
  private replayed = false;
  /** Whether the main frame committed a document since the page was last known loaded. */
  private navigated = false;
  /** Documents (or same-document URLs) the main frame committed: a read during which this changed is made again. */
  private commits = 0;
  /** Set once the renderer died (a DevTools call is then never answered). */
  private crashed = false;
  private readonly onCrash = () => {
    this.crashed = true;
  };
  private readonly onNavigated = (frame: Frame) => {
    if (frame !== this.page.mainFrame()) return;
    this.navigated = true;
    this.commits++;
  };
  private readonly onResponse = (res: Response) => {
    const req = res.request();
    if (req.isNavigationRequest() && req.frame() === this.page.mainFrame()) this.lastResponse = res;
  };

  constructor(page: Page, opened: OpenedPage, options: LoadedPageOptions) {
    this.page = page;
    this.opened = opened;
    this.options = options;
    this.kept = options.kept;
    // A navigation may have committed between openPage and here.
    this.navigated = page.url() !== opened.url;
    this.lastResponse = opened.replacedBy;
    page.on('response', this.onResponse);
    page.on('framenavigated', this.onNavigated);
    page.on('crash', this.onCrash);
  }

  /**
   * From here on the document shown is the one the tool reads: page scripts are stopped before each read.
   * `opened` describes it (after actions, the page they led to, with `kept`: its own copy, if any); later
   * navigations are measured from here.
   */
  hold(opened: OpenedPage, kept?: () => Promise<string | null>): void {
    this.opened = opened;
    if (kept) this.kept = kept;
    // A document that replaced it while it opened is what the tab shows (when its URL is the tab's).
    this.lastResponse = opened.replacedBy;
    this.lastRead = undefined;
    this.stopping = true;
  }

  /** The document last read: its URL and status (a page a script navigated to after load, or the one opened). */
  get current(): OpenedPage {
    return this.lastRead ?? this.shown();
  }

  /** The document the tab shows now. */
  private shown(): OpenedPage {
    const res = this.lastResponse;
    // A refusal is never what is read (the kept copy is shown in its place), and a response whose document
    // did not commit (window.stop() cancelled it) is not the page's.
    if (this.replayed || !res || res.headers()[PROXY_VERDICT_HEADER] !== undefined || res.url() !== this.page.url().split('#')[0]) return this.opened;
    const headers = res.headers();
    // Not the opened page's serverHtml: that is another document's (env.opened still has it).
    return { url: this.page.url(), status: res.status(), contentType: headers['content-type'] ?? null, headers };
  }

  async evaluate<R, A>(fn: InPage<A, R>, arg: A): Promise<R> {
    let last: unknown;
    for (let read = 1; read <= MAX_READS; read++) {
      await this.settle();
      const commits = this.commits;
      try {
        const result = await this.read(fn, arg);
        // DevTools reads whatever document the tab shows when the call arrives: one committed during the
        // read may not have loaded yet (page.evaluate would have failed on the old one's context instead).
        if (this.commits === commits) {
          this.lastRead = this.shown();
          return result;
        }
        last = new Error('Execution context was destroyed: the page navigated during the read');
      } catch (err) {
        if (!isNavigationError(err) && this.commits === commits) throw err;
        last = err;
      }
      // A meta refresh needs no script: stop whatever loads next too.
      this.stopped = false;
    }
    // Navigations keep coming (a meta refresh loop): read the kept copy, which cannot navigate.
    if (!(await this.replay())) throw last;
    const result = await this.read(fn, arg);
    this.lastRead = this.opened;
    return result;
  }

  /** `fn(arg)` through DevTools, failing as page.evaluate would when the renderer dies or the tab closes. */
  private read<R, A>(fn: InPage<A, R>, arg: A): Promise<R> {
    if (this.crashed) return Promise.reject(new Error('Target crashed'));
    return evaluateInPage(this.page, fn, arg);
  }

  /** The page's title, read the same way. */
  title(): Promise<string> {
    return this.evaluate(() => document.title, undefined);
  }

  /** Stops watching the page (the tab goes back to the pool). */
  stop(): void {
    this.page.off('response', this.onResponse);
    this.page.off('framenavigated', this.onNavigated);
    this.page.off('crash', this.onCrash);
  }

  /**
   * Brings the page to a document that can be read: loaded, not navigating, not a refusal. For a read
   * Playwright makes itself (a locator's ARIA snapshot); evaluate() does it before each read.
   */
  async settle(): Promise<void> {
    if (this.stopping && !this.stopped) await this.stopScripts();
    // Only a document a navigation brought is waited for: the page opened was waited for by openPage
    // (which may have given up on a load event that never comes).
    if (this.navigated) {
      this.navigated = false;
      const timeout = Math.min(SETTLE_MS, this.options.budget.left());
      try {
        await this.page.waitForLoadState(this.options.state, { timeout });
      } catch (err) {
        // Still loading at the bound: read it as rendered so far, as openPage does.
        if ((err as Error).name !== 'TimeoutError') throw err;
      }
    }
    if (this.showsFailure() && !(await this.replay())) {
      // Only the guard's refusal fails the task; an error page a script led to is read as it is.
      if (this.page.url().startsWith('chrome-error:') || this.lastResponse?.headers()[PROXY_VERDICT_HEADER] === undefined) return;
      throw this.options.refused(this.page.url());
    }
  }

  /**
   * Scripts off (no new navigation can start) and window.stop() (cancels one not yet committed). Bounded: a
   * renderer stuck in a script answers neither, and a raw DevTools call is not rejected when the renderer
   * dies; the read that follows then fails (or times out) as it would have.
   */
  private async stopScripts(): Promise<void> {
    const stop = async () => {
      const cdp = await cdpSession(this.page);
      // The tab's reset turns scripts back on for the next task.
      await cdp.send('Emulation.setScriptExecutionDisabled', { value: true });
      // In whatever document the tab shows when the call arrives: one a navigation just committed is still
      // loading, and stopping it would leave it half parsed (page.evaluate failed on the old one instead).
      await cdp.send('Runtime.evaluate', { expression: "document.readyState === 'loading' || window.stop()" });
    };
    let timer: NodeJS.Timeout | undefined;
    let onGone: (() => void) | undefined;
    const gone = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, Math.min(SETTLE_MS, this.options.budget.left()));
      onGone = resolve;
      this.page.once('crash', onGone).once('close', onGone);
    });
    try {
      await Promise.race([stop().catch(() => undefined), gone]);
    } finally {
      clearTimeout(timer);
      this.page.off('crash', onGone!).off('close', onGone!);
    }
    this.stopped = true;
  }

  /**
   * Whether what the tab shows, since the page loaded, is no page: the guard's refusal, Chromium's error
   * page, or an HTTP error a navigation after load ended on (a script sent the page to a 404).
   */
  private showsFailure(): boolean {
    if (this.replayed) return false;
    if (this.page.url().startsWith('chrome-error:')) return true;
    const res = this.lastResponse;
    if (res === undefined || res.url() !== this.page.url().split('#')[0]) return false;
    return res.headers()[PROXY_VERDICT_HEADER] !== undefined || res.status() >= 400;
  }

  /**
   * Shows the page that loaded again, scripts off: its kept copy, else (the browser may drop a response's
   * body as soon as the page navigates on) the tab's previous history entry when a refusal replaced it, as
   * the back button would. False when neither brings it back.
   */
  private async replay(): Promise<boolean> {
    const html = await this.kept();
    const failed = this.showsFailure();
    if (html === null && !failed) return false;
    await this.stopScripts();
    const timeout = Math.max(1, Math.min(SETTLE_MS, this.options.budget.left()));
    if (html !== null) {
      // about:blank first: a browser-initiated navigation ends whatever the page was doing.
      await this.page.goto('about:blank', { timeout });
      await this.page.setContent(keptDocument(html, this.opened.url), { waitUntil: this.options.state, timeout });
    } else {
      const back = await this.page.goBack({ timeout, waitUntil: this.options.state }).catch(() => null);
      if (!back || back.headers()[PROXY_VERDICT_HEADER] !== undefined || this.page.url() !== this.opened.url) return false;
    }
    this.replayed = true;
    return true;
  }
}

/** The kept HTML with its URL as base (links resolve as on the page) and no meta refresh (it would leave again). */
export function keptDocument(html: string, url: string): string {
  const noRefresh = html.replace(/<meta\b[^>]*http-equiv\s*=\s*["']?refresh\b[^>]*>/gi, '');
  if (!/^https?:/i.test(url) || /<base\b/i.test(noRefresh)) return noRefresh;
  const base = `<base href="${url.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`;
  const head = /<head\b[^>]*>/i.exec(noRefresh);
  return head ? noRefresh.slice(0, head.index + head[0].length) + base + noRefresh.slice(head.index + head[0].length) : base + noRefresh;
}
