// A raw DevTools session per page, for the few calls Playwright does not expose (a screenshot with
// speed-oriented options, clearing a reused page's state). One session per page, made on first use and
// dropped with the page.
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
