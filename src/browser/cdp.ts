// A raw DevTools session per page, for the few calls Playwright does not expose (a screenshot with
// speed-oriented options, clearing a reused page's state) or makes dearer (a loaded page's reads). One
// session per page, made on first use and dropped with the page.
import type { CDPSession, Page } from 'playwright-core';
import { ToolError } from '../errors.js';

const sessions = new WeakMap<Page, Promise<CDPSession>>();

export function cdpSession(page: Page): Promise<CDPSession> {
  let session = sessions.get(page);
  if (!session) {
    session = page.context().newCDPSession(page);
    // A failed attach must not stick: the next call tries again (or fails on the closed page).
    session.catch(() => sessions.delete(page));
    sessions.set(page, session);
  }
  return session;
}

/** `promise`, or the task's time-limit error once `ms` have passed (worth a retry, like Playwright's timeouts). */
export function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ToolError('The page did not finish rendering within the time limit.', 'transient')), Math.max(1, ms));
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * `fn(arg)` run in the page's main world through DevTools, its JSON-safe value returned (a promise is
 * awaited). page.evaluate() first injects Playwright's utility script into every new document (about 10 KB
 * for the renderer to compile, and round trips): worth avoiding for a page read a few times. When the
 * document goes away under it, DevTools says "Execution context was destroyed", "Cannot find default
 * execution context" or "Inspected target navigated or closed". Unlike page.evaluate, not rejected when the
 * renderer dies: the caller bounds it.
 */
export async function evaluateValue<A, R>(page: Page, fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> {
  const cdp = await cdpSession(page);
  const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', {
    expression: `(${fn.toString()})(${JSON.stringify(arg)})`,
    returnByValue: true,
    awaitPromise: true,
  });
  if (exceptionDetails) throw new Error(`Evaluation failed: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
  return result.value as R;
}

/**
 * `fn(arg)` in the page's main world, its JSON value returned; failing as page.evaluate would when the
 * renderer dies or the tab closes (a DevTools call is not rejected then).
 */
export async function evaluateInPage<A, R>(page: Page, fn: (arg: A) => R | Promise<R>, arg: A): Promise<R> {
  if (page.isClosed()) throw new Error('Target page, context or browser has been closed');
  let onCrash: (() => void) | undefined;
  let onClose: (() => void) | undefined;
  const gone = new Promise<never>((_, reject) => {
    onCrash = () => reject(new Error('Target crashed'));
    onClose = () => reject(new Error('Target page, context or browser has been closed'));
    page.once('crash', onCrash).once('close', onClose);
  });
  try {
    return await Promise.race([evaluateValue(page, fn, arg), gone]);
  } finally {
    page.off('crash', onCrash!).off('close', onClose!);
  }
}
