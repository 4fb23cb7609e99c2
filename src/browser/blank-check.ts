// Blank-page safety for screenshots: pages that draw their content with scripts after `load` are often
// still empty when captured. Visible text or images in the viewport settle it at once (one cheap DOM
// query); otherwise a small capture of the viewport is checked for near-uniform colour;
// while it is blank and the DOM keeps changing, we wait for the changes to settle and look again, within
// the task's budget. A page that stays blank is reported as such (blank: true) instead of as a success.
// Scripts run meanwhile and may navigate (a blank shell that sends the browser to the real page): each read
// is made again on the document that replaced the one it was reading (src/browser/page-reads.ts).
import type { Page } from 'playwright-core';
import type { RenderBudget } from './navigate.js';
import { readPage } from './page-reads.js';
import { nextMutation, viewportHasContent } from './page-scripts.js';
import { decodePng, type Pixels } from './png-pixels.js';

/** The probe is captured at this fraction of the viewport's CSS size (a 1280×800 page → 320×200). */
const PROBE_SCALE = 0.25;
/** A channel this far from the dominant colour makes a pixel count as content. */
const TOLERANCE = 16;
/** At most this share of content pixels still counts as blank (a stray pixel or two). */
const MAX_CONTENT_SHARE = 0.0002;
/** How long the DOM may stay still before a blank page is taken as final. */
const CHANGE_WINDOW_MS = 1_500;
/** Quiet time after a change before looking again (lets a burst of rendering finish). */
const QUIET_MS = 200;
/** Longest the check waits in all. */
const MAX_WAIT_MS = 10_000;

/** True when (almost) every pixel has the same colour. */
export function isNearUniform(pixels: Pixels): boolean {
  const { rgba } = pixels;
  const n = rgba.length / 4;
  if (n === 0) return true;
  // The dominant colour, by 5-bit-per-channel buckets.
  const counts = new Map<number, number>();
  let best = 0;
  let bestCount = 0;
  for (let o = 0; o < rgba.length; o += 4) {
    const bucket = ((rgba[o]! >> 3) << 15) | ((rgba[o + 1]! >> 3) << 10) | ((rgba[o + 2]! >> 3) << 5) | (rgba[o + 3]! >> 3);
    const c = (counts.get(bucket) ?? 0) + 1;
    counts.set(bucket, c);
    if (c > bestCount) [best, bestCount] = [bucket, c];
  }
  const ref = [((best >> 15) & 31) * 8 + 4, ((best >> 10) & 31) * 8 + 4, ((best >> 5) & 31) * 8 + 4, (best & 31) * 8 + 4];
  let content = 0;
  const allowed = Math.floor(n * MAX_CONTENT_SHARE);
  for (let o = 0; o < rgba.length; o += 4) {
    for (let ch = 0; ch < 4; ch++) {
      if (Math.abs(rgba[o + ch]! - ref[ch]!) > TOLERANCE) {
        if (++content > allowed) return false;
        break;
      }
    }
  }
  return true;
}

/**
 * Visible text or images mean not blank; only without them is a small capture of the viewport taken
 * through the DevTools protocol (a capture costs about half a screenshot) and its colours checked.
 */
async function viewportLooksBlank(page: Page): Promise<boolean> {
  if (await readPage(page, viewportHasContent, undefined)) return false;
  const size = page.viewportSize() ?? { width: 1280, height: 800 };
  const cdp = await page.context().newCDPSession(page);
  try {
    const { data } = await cdp.send('Page.captureScreenshot', {
      format: 'png',
      clip: { x: 0, y: 0, width: size.width, height: size.height, scale: PROBE_SCALE },
      captureBeyondViewport: false,
      optimizeForSpeed: true,
    });
    return isNearUniform(decodePng(Buffer.from(data, 'base64')));
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

/**
 * Waits while the viewport is blank and the DOM still changes; returns whether it is still blank. With
 * scripts off nothing can change, so one look decides.
 */
export async function waitWhileBlank(page: Page, budget: RenderBudget, scripts: boolean): Promise<boolean> {
  const until = Date.now() + budget.forLoading(MAX_WAIT_MS);
  let blank = await viewportLooksBlank(page);
  while (blank && scripts && until - Date.now() > 0) {
    const changed = await readPage(page, nextMutation, Math.min(CHANGE_WINDOW_MS, until - Date.now()));
    if (!changed) {
      // The page may have drawn between the last look and the observer starting (a slow capture on a busy
      // machine): one more look settles it rather than reporting a page that has content as blank.
      blank = await viewportLooksBlank(page);
      break;
    }
    // Let the burst of changes finish (bounded by the same deadline) before looking again.
    while (until - Date.now() > QUIET_MS && (await readPage(page, nextMutation, QUIET_MS))) {
      // still changing
    }
    blank = await viewportLooksBlank(page);
  }
  return blank;
}
