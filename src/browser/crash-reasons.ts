// Why a page's renderer died. Playwright only says "Page crashed"; Chromium's browser process knows how
// the renderer ended (Target.targetCrashed: a termination status and the exit code or signal) and tells
// a browser-level DevTools session that discovers targets. One watcher per browser keeps those reports;
// the pool asks it about a page that crashed during a task, so the task can say what happened.
import type { Browser, CDPSession, Page } from 'playwright-core';
import { cdpSession } from './cdp.js';
import { PAGE_HEAP_MB } from './launch-args.js';

/** How a renderer ended, as the task's error tells it. */
export type CrashCause = 'memory' | 'killed' | 'crashed';

interface Report {
  status: string;
  errorCode: number;
}

// Chromium ends a renderer whose script heap reaches the --max-old-space-size cap on purpose: Blink's V8
// out-of-memory handler logs "V8 javascript OOM (Reached heap limit)" and calls OOM_CRASH, an immediate
// crash instruction, so on Linux and macOS the process dies by SIGTRAP and Chromium reports it as
// "crashed" with that signal (measured: the runaway-memory page gives {status: crashed, errorCode: 5}).
// Windows, Android and ChromeOS report "oom" outright. A failed CHECK in Chromium also ends in SIGTRAP;
// that is a Chromium bug and far rarer than a page filling its heap, so SIGTRAP is read as memory.
const SIGTRAP = 5;
const SIGKILL = 9;
const OOM_STATUSES = new Set(['oom', 'oom protected']);

export function causeOf(report: Report | undefined): CrashCause {
  if (!report) return 'crashed';
  if (OOM_STATUSES.has(report.status) || (report.status === 'crashed' && report.errorCode === SIGTRAP)) return 'memory';
  // SIGKILL comes from outside: an operator, a supervisor, or the kernel's out-of-memory killer.
  if (report.status === 'killed' || report.errorCode === SIGKILL) return 'killed';
  return 'crashed';
}

/** The task error's words for each cause. */
export function crashMessage(cause: CrashCause): string {
  if (cause === 'memory') return `The page used more memory than the limit of ${PAGE_HEAP_MB} MB for a page's scripts; the browser stopped it.`;
  if (cause === 'killed') return 'The page crashed: its renderer process was killed from outside the browser; the task will be retried.';
  return 'The page crashed (its renderer process died); the task will be retried.';
}

export class CrashReasons {
  /** Reports by DevTools target id; a target's entry goes when Chromium says the target is gone. */
  private readonly reports = new Map<string, Report>();
  private readonly arrived = new Set<() => void>();

  private constructor(session: CDPSession) {
    session.on('Target.targetCrashed', (e: { targetId: string; status: string; errorCode: number }) => {
      this.reports.set(e.targetId, { status: e.status, errorCode: e.errorCode });
      for (const wake of this.arrived) wake();
    });
    session.on('Target.targetDestroyed', (e: { targetId: string }) => this.reports.delete(e.targetId));
  }

  /** Starts listening on `browser`; only pages are discovered, so workers and frames cost nothing. */
  static async watch(browser: Browser): Promise<CrashReasons> {
    const session = await browser.newBrowserCDPSession();
    await session.send('Target.setDiscoverTargets', { discover: true, filter: [{ type: 'page' }] });
    return new CrashReasons(session);
  }

  /**
   * Why `page` crashed. Chromium sends the report on the browser session and Playwright's crash event on
   * the page's, so the report may come a moment after the page's error: wait for it, up to `waitMs`.
   */
  async causeFor(page: Page, waitMs = 1_000): Promise<CrashCause> {
    let targetId: string;
    try {
      // The Target domain is answered by the browser process, so this works on a crashed page.
      const info = (await (await cdpSession(page)).send('Target.getTargetInfo')) as { targetInfo: { targetId: string } };
      targetId = info.targetInfo.targetId;
    } catch {
      return 'crashed';
    }
    const deadline = Date.now() + waitMs;
    while (!this.reports.has(targetId) && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.arrived.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, Math.max(1, deadline - Date.now()));
        this.arrived.add(wake);
      });
    }
    return causeOf(this.reports.get(targetId));
  }
}
