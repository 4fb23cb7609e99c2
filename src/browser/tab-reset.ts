// Wipes a reused tab between tasks so that nothing one task's page did is visible to the next. In order:
// page scripts are switched off (nothing can write again while the rest is cleared), session storage is
// cleared for every origin a frame shows (it belongs to the tab, and DevTools reaches it only through a
// frame of that origin), the page goes to about:blank, the session history goes (no history.back() into
// the last task's page, and the back/forward cache with it), then cookies, every kind of storage of every
// origin the page's frames committed documents from (local storage, IndexedDB, Cache Storage, file
// systems...), the HTTP cache and window.name. Standard tasks change nothing else (headers, emulation,
// routes and cookies given by the caller come with a context of their own); a viewport a task chose is
// put back. When any of that is not possible the tab is not reused.
import type { Page } from 'playwright-core';
import { cdpSession, within } from './cdp.js';

const RESET_TIMEOUT_MS = 5_000;

/** The origin of an http(s) URL, or undefined (opaque origins have no storage to clear). */
export function storageOrigin(url: string): string | undefined {
  if (!/^https?:/i.test(url)) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Wipes the tab; false when it cannot be wiped completely (a document came from an origin no frame shows
 * any more, or from a frame this session cannot reach, so that origin's session storage is out of reach)
 * and must be closed instead.
 */
export async function resetTab(page: Page, origins: Iterable<string>, viewport: { width: number; height: number }): Promise<boolean> {
  const deadline = Date.now() + RESET_TIMEOUT_MS;
  const left = () => deadline - Date.now();
  const shown = new Set<string>();
  for (const frame of page.frames()) {
    const origin = storageOrigin(frame.url());
    if (origin) shown.add(origin);
  }
  const all = [...origins];
  if (all.some((o) => !shown.has(o))) return false;

  const cdp = await within(cdpSession(page), left());
  await within(cdp.send('Emulation.setScriptExecutionDisabled', { value: true }), left());
  try {
    await within(
      Promise.all([...shown].map((securityOrigin) => cdp.send('DOMStorage.clear', { storageId: { securityOrigin, isLocalStorage: false } }))),
      left(),
    );
  } catch {
    // A frame this session does not reach (an out-of-process iframe of another site): not reusable.
    return false;
  }
  await page.goto('about:blank', { timeout: left() });
  const wipes: Promise<unknown>[] = [
    cdp.send('Emulation.setScriptExecutionDisabled', { value: false }),
    cdp.send('Page.resetNavigationHistory'),
    page.context().clearCookies(),
    cdp.send('Network.clearBrowserCache'),
    cdp.send('Runtime.evaluate', { expression: "window.name = ''" }),
    cdp.send('Emulation.setDefaultBackgroundColorOverride', {}),
    ...all.map((origin) => cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' })),
  ];
  const size = page.viewportSize();
  if (size?.width !== viewport.width || size.height !== viewport.height) wipes.push(page.setViewportSize(viewport));
  await within(Promise.all(wipes), left());
  return true;
}

/**
 * A held tab handed on unwiped to the next task of its share (pool.ts): page scripts back on, which a
 * DOM-reading task stopped before its read (loaded-page.ts) and the wipe would have turned on. False when
 * that cannot be done: the tab is then closed.
 */
export async function resumeTab(page: Page): Promise<boolean> {
  try {
    const cdp = await within(cdpSession(page), RESET_TIMEOUT_MS);
    await within(cdp.send('Emulation.setScriptExecutionDisabled', { value: false }), RESET_TIMEOUT_MS);
    return true;
  } catch {
    return false;
  }
}
