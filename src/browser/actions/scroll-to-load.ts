// Scrolls a page a viewport at a time down to its end, and on while the end keeps moving (an infinite
// list), so lazily loaded images and items are in the document before capture. After each step it waits
// for what the step started: the page's frames, then every request in flight. It stops at the bottom of a
// page that stopped growing, at a height cap, at a step cap or at the deadline, and returns to the top.
// A scroll may make the page navigate (a scroll handler, an infinite list that moves to its next page):
// every read and step goes on in the document that replaced it (src/browser/page-reads.ts), so scrolling
// ends on the final page instead of failing the task.
import type { Page, Request } from 'playwright-core';
import { readPage } from '../page-reads.js';

/** Most viewport-sized steps one scroll takes. */
export const MAX_SCROLL_STEPS = 150;
/** A page is not scrolled past this height, CSS px (the screenshot cap is 16,384). */
export const MAX_SCROLL_HEIGHT = 60_000;
/** Longest wait for the requests a step started. */
const REQUESTS_WAIT_MS = 3_000;
/** At the bottom, how long the end must stay put before the page counts as done growing. */
const QUIET_AT_BOTTOM_MS = 400;
/** Longest wait for images in view to finish loading. */
export const IMAGES_WAIT_MS = 5_000;

/** What scrolling to the bottom did: steps taken, and the page height before and after. */
export interface ScrollReport {
  steps: number;
  height_before: number;
  height_after: number;
}

const NEXT_FRAMES = () =>
  new Promise<void>((resolve) => {
    // Two frames: intersection observers report after the first; their callbacks' work lands by the second.
    requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
  });

export async function scrollToLoad(page: Page, deadline: number): Promise<ScrollReport> {
  const inFlight = new Set<Request>();
  const started = (r: Request) => inFlight.add(r);
  const ended = (r: Request) => inFlight.delete(r);
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  const settle = async () => {
    await withinDeadline(readPage(page, NEXT_FRAMES, undefined), deadline);
    const until = Math.min(deadline, Date.now() + REQUESTS_WAIT_MS);
    while (inFlight.size > 0 && Date.now() < until) await page.waitForTimeout(50);
    await withinDeadline(readPage(page, NEXT_FRAMES, undefined), deadline);
  };
  try {
    const before = await pageHeight(page);
    let steps = 0;
    let quietHeight = -1;
    while (steps < MAX_SCROLL_STEPS && Date.now() < deadline) {
      const at = await readPage(
        page,
        () => {
          window.scrollBy(0, window.innerHeight);
          const root = document.scrollingElement ?? document.documentElement;
          return { bottom: window.scrollY + window.innerHeight, height: root.scrollHeight };
        },
        undefined,
      );
      steps++;
      await settle();
      const height = await pageHeight(page);
      if (height >= MAX_SCROLL_HEIGHT && at.bottom >= MAX_SCROLL_HEIGHT) break;
      if (at.bottom < height - 1) continue;
      // At the end: done once the end stays where it is for a moment (content added on a timer counts too).
      if (height === quietHeight) break;
      quietHeight = height;
      await page.waitForTimeout(Math.max(0, Math.min(QUIET_AT_BOTTOM_MS, deadline - Date.now())));
      await settle();
      if ((await pageHeight(page)) === height) break;
    }
    await readPage(page, () => window.scrollTo(0, 0), undefined);
    await waitForImages(page, Math.min(IMAGES_WAIT_MS, Math.max(1, deadline - Date.now())), true);
    return { steps, height_before: before, height_after: await pageHeight(page) };
  } finally {
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
  }
}

function pageHeight(page: Page): Promise<number> {
  return readPage(page, () => (document.scrollingElement ?? document.documentElement).scrollHeight, undefined);
}

/**
 * Waits (at most `timeoutMs`) for images still loading: every one that has started, or with `all` false
 * only those a full-page capture would show that are not lazy images waiting for the viewport.
 */
export async function waitForImages(page: Page, timeoutMs: number, all: boolean): Promise<void> {
  await readPage(
    page,
    ([ms, every]: readonly [number, boolean]) => {
      const pending = Array.from(document.images).filter((img) => {
        if (img.complete || !(img.currentSrc || img.src)) return false;
        const r = img.getBoundingClientRect();
        // Not laid out (display: none): never shown, and a lazy one never starts.
        if (r.width === 0 && r.height === 0) return false;
        return every || img.loading !== 'lazy' || (r.bottom > 0 && r.top < window.innerHeight);
      });
      if (pending.length === 0) return Promise.resolve();
      const loaded = Promise.all(
        pending.map(
          (img) =>
            new Promise<void>((resolve) => {
              img.addEventListener('load', () => resolve(), { once: true });
              img.addEventListener('error', () => resolve(), { once: true });
            }),
        ),
      );
      return Promise.race([loaded.then(() => undefined), new Promise<void>((resolve) => setTimeout(resolve, ms))]);
    },
    [timeoutMs, all] as const,
  ).catch(() => undefined);
}

async function withinDeadline<T>(work: Promise<T>, deadline: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(1, deadline - Date.now()));
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
