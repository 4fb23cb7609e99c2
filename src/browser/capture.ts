// Screenshots straight through DevTools' Page.captureScreenshot. Playwright's page.screenshot() costs a
// third more Chromium CPU for the same image (several round trips per capture, PNG at zlib's default
// level); here it is one evaluate and one capture with optimizeForSpeed (a faster PNG encoding: larger
// files, identical pixels). Chromium's bytes are handed out as they come: nothing is decoded or re-encoded.
import type { Page } from 'playwright-core';
import { cdpSession, within } from './cdp.js';
import { readPage } from './page-reads.js';

export interface Clip {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface CaptureOptions {
  format: 'png' | 'jpeg' | 'webp';
  /** 1-100, jpeg and webp only. */
  quality?: number | undefined;
  /** The whole document (cut at `maxHeight`) instead of the viewport. */
  fullPage?: boolean | undefined;
  /** Cut a full-page capture at this many CSS pixels. */
  maxHeight?: number | undefined;
  /** A region of the document in CSS pixels (wins over fullPage). */
  clip?: Clip | undefined;
  /** A transparent background where the page sets none (png and webp). */
  omitBackground?: boolean | undefined;
  timeoutMs: number;
}

// Run in the page before capturing, as Playwright's animations: 'disabled' and caret: 'hide' do: finite
// CSS animations and transitions jump to their end state (a fade-in shows its content), infinite ones go
// back to their start, the text caret is hidden, and web fonts that are still loading are waited for.
const PREPARE = `(async () => {
  for (const a of document.getAnimations?.() ?? []) {
    try {
      const t = a.effect?.getComputedTiming?.();
      if (t && Number.isFinite(t.endTime)) a.finish(); else a.cancel();
    } catch {}
  }
  // A caret shows only in a focused editable element; restyling every element costs a full style pass.
  const focused = document.activeElement;
  if (focused && (focused.isContentEditable || focused.tagName === 'INPUT' || focused.tagName === 'TEXTAREA')) {
    const style = document.createElement('style');
    style.textContent = '*{caret-color:transparent !important}';
    (document.head ?? document.documentElement)?.append(style);
  }
  await document.fonts?.ready;
  return devicePixelRatio;
})()`;

// Pages of the pool's standard tabs: no device emulation beyond the viewport. A capture through a
// second DevTools session makes Chromium apply and then clear device metrics of that session, which
// drops a page's emulated scale factor and mobile viewport (not a plain viewport size), so only these
// pages take the fast path; any other goes through Playwright, whose session set the emulation.
const plainPages = new WeakSet<Page>();

export function markPlainPage(page: Page): void {
  plainPages.add(page);
}

// Waits for the next frame: Chromium answers "Unable to capture screenshot" when asked before the page
// has produced one.
const NEXT_FRAME = 'new Promise((resolve) => requestAnimationFrame(() => resolve(0)))';
const CAPTURE_ATTEMPTS = 5;

export async function captureScreenshot(page: Page, opts: CaptureOptions): Promise<Buffer> {
  if (!plainPages.has(page)) return playwrightCapture(page, opts);
  const deadline = Date.now() + opts.timeoutMs;
  const left = () => deadline - Date.now();
  const cdp = await within(cdpSession(page), left());
  // Scripts may be switched off for the page: its animations then stay as they are, and the scale
  // factor is read all the same (DevTools may evaluate).
  let scale = 1;
  try {
    const prepared = await within(cdp.send('Runtime.evaluate', { expression: PREPARE, awaitPromise: true, returnByValue: true }), left());
    const dpr: unknown = prepared.result.value;
    if (typeof dpr === 'number' && Number.isFinite(dpr) && dpr > 0) scale = dpr;
  } catch (err) {
    if ((err as Error).name === 'ToolError') throw err;
  }
  // A plain page has a scale factor of 1; should one differ, the image must still be in device pixels.
  if (scale !== 1) return playwrightCapture(page, { ...opts, timeoutMs: left() });

  let clip: (Clip & { scale: number }) | undefined;
  let beyondViewport = false;
  if (opts.clip || opts.fullPage) {
    const metrics = await within(cdp.send('Page.getLayoutMetrics'), left());
    const view = metrics.cssVisualViewport;
    const doc = metrics.cssContentSize;
    const area = opts.clip ?? { x: 0, y: 0, width: Math.max(doc.width, view.clientWidth), height: Math.max(doc.height, view.clientHeight) };
    const height = opts.maxHeight !== undefined ? Math.min(area.height, opts.maxHeight) : area.height;
    clip = { x: area.x, y: area.y, width: Math.ceil(area.width), height: Math.ceil(height), scale: 1 };
    beyondViewport =
      clip.x < view.pageX ||
      clip.y < view.pageY ||
      clip.x + clip.width > view.pageX + view.clientWidth ||
      clip.y + clip.height > view.pageY + view.clientHeight;
  }

  const transparent = opts.omitBackground && opts.format !== 'jpeg';
  if (transparent) await within(cdp.send('Emulation.setDefaultBackgroundColorOverride', { color: { r: 0, g: 0, b: 0, a: 0 } }), left());
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        const { data } = await within(
          cdp.send('Page.captureScreenshot', {
            format: opts.format,
            ...(opts.format !== 'png' ? { quality: opts.quality ?? 80 } : {}),
            ...(clip ? { clip } : {}),
            captureBeyondViewport: beyondViewport,
            optimizeForSpeed: true,
          }),
          left(),
        );
        return Buffer.from(data, 'base64');
      } catch (err) {
        if (attempt >= CAPTURE_ATTEMPTS || !/Unable to capture screenshot/i.test((err as Error).message)) throw err;
        await within(cdp.send('Runtime.evaluate', { expression: NEXT_FRAME, awaitPromise: true }), Math.min(200, left())).catch(() => undefined);
      }
    }
  } finally {
    if (transparent) await cdp.send('Emulation.setDefaultBackgroundColorOverride', {}).catch(() => undefined);
  }
}

/** Playwright's capture (device pixels), for pages with device emulation. */
async function playwrightCapture(page: Page, opts: CaptureOptions): Promise<Buffer> {
  let clip = opts.clip;
  if (!clip && opts.fullPage && opts.maxHeight !== undefined) {
    const height = await readPage(page, () => Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0), undefined);
    if (height > opts.maxHeight) clip = { x: 0, y: 0, width: page.viewportSize()?.width ?? 1280, height: opts.maxHeight };
  }
  return page.screenshot({
    type: opts.format,
    ...(opts.format !== 'png' ? { quality: opts.quality ?? 80 } : {}),
    fullPage: opts.fullPage === true || clip !== undefined,
    ...(clip ? { clip } : {}),
    omitBackground: opts.omitBackground ?? false,
    animations: 'disabled',
    caret: 'hide',
    scale: 'device',
    timeout: Math.max(1, opts.timeoutMs),
  });
}
