// Reads of a page whose scripts still run (before capture: overlays, the caller's actions, scrolling lazy
// content in, the blank check, a screenshot's height). A click may follow a link, a submitted form or a
// scroll handler may navigate, a consent manager may reload the page: a read in flight then fails with
// "Execution context was destroyed". Such a read is made again on the document that replaced it, once that
// has reached DOMContentLoaded (bounded), as LoadedPage's reads are; through DevTools (Runtime.evaluate),
// which does not inject Playwright's utility script into each new document. Only reads and idempotent
// steps go through here: work with effects (a click, the caller's expression) is not made twice.
import type { Page } from 'playwright-core';
import { evaluateInPage } from './cdp.js';

/** Reads a navigation interrupts are made this many times in all (then LoadedPage reads its kept copy). */
export const MAX_READS = 3;
/** Longest wait for the document a navigation brought to be parsed. */
export const DOCUMENT_WAIT_MS = 5_000;

/** What Playwright or DevTools says when the document it was reading went away under it. */
const NAVIGATED =
  /Execution context was destroyed|Cannot find context with specified id|Cannot find default execution context|frame was detached|Frame has been detached|navigating and changing the content|Inspected target navigated or closed|Unable to adopt element handle from a different document/i;

export function isNavigationError(err: unknown): boolean {
  return NAVIGATED.test(err instanceof Error ? err.message : String(err));
}

/** A function serialised into the page (it cannot close over anything here). */
export type InPage<A, R> = (arg: A) => R | Promise<R>;

/** Anything that can evaluate in a page: a Page, or a LoadedPage reading it safely. */
export interface PageReader {
  evaluate<R, A>(fn: InPage<A, R>, arg: A): Promise<R>;
}

/** Waits (bounded) for the document a navigation brought to be parsed; a page still loading is used as it is. */
export async function documentReady(page: Page, timeoutMs = DOCUMENT_WAIT_MS): Promise<void> {
  try {
    await page.waitForLoadState('domcontentloaded', { timeout: Math.max(1, timeoutMs) });
  } catch (err) {
    if ((err as Error).name !== 'TimeoutError') throw err;
  }
}

/** `work()`, made again (up to MAX_READS times in all) when a navigation interrupted it. Only for work without effects. */
export async function acrossNavigations<T>(page: Page, work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (attempt >= MAX_READS || !isNavigationError(err)) throw err;
    }
    await documentReady(page);
  }
}

/** `fn(arg)` in the page, made again on the document that replaced it when a navigation interrupted it. */
export function readPage<A, R>(page: Page, fn: InPage<A, R>, arg: A): Promise<R> {
  return acrossNavigations(page, () => evaluateInPage(page, fn, arg));
}

/** A PageReader over a page whose scripts run (for the bot-wall check of a page the actions led to). */
export function navigationSafeReader(page: Page): PageReader {
  return { evaluate: (fn, arg) => readPage(page, fn, arg) };
}
