// Runs the caller's action steps in order on the loaded page, each bounded by what is left of the
// actions' time. A step that fails stops the task with its index and why, so the caller can fix that step.
// A step may navigate (a clicked link, a submitted form, a script reacting to a key) and a navigation may
// come while a later step runs: Playwright's locator steps (wait, click, fill, hover, scroll into view) find
// their element again in the new document; reads (an option's value, the scroll, the HTML, the title) are
// made again on the document that replaced the one they were reading (src/browser/page-reads.ts); the
// caller's expression is never run twice (see evaluateJson).
import type { Page } from 'playwright-core';
import { ToolError } from '../../errors.js';
import type { ToolContext } from '../../registry/define-tool.js';
import { lazyModule } from '../../registry/lazy-module.js';
import { captureScreenshot } from '../capture.js';
import { pdfPageCount } from '../pdf-pages.js';
import { acrossNavigations, documentReady, isNavigationError, readPage } from '../page-reads.js';
import type { ActionOutcome } from './output.js';
import type { Action } from './schema.js';
import { scrollToLoad } from './scroll-to-load.js';

// The artifact store: loaded with the first intermediate screenshot.
const publishModule = lazyModule(() => import('../../artifacts/publish.js'));

/** Largest JSON an evaluate step may return, characters. */
export const MAX_EVALUATE_JSON_CHARS = 16_000;
/** Most elements one click step with all: true clicks. */
export const MAX_CLICK_ALL = 100;
const MAX_CAPTURE_HEIGHT = 16_384;
/** Largest HTML a scrape step keeps, bytes (browser.content's limit). */
export const MAX_SCRAPE_BYTES = 10_000_000;

export interface ActionEnv {
  ctx: Pick<ToolContext, 'config' | 'use'>;
  /** Epoch ms by which every step must be done. */
  deadline: number;
}

export async function runActions(page: Page, actions: readonly Action[], env: ActionEnv): Promise<ActionOutcome[]> {
  const outcomes: ActionOutcome[] = [];
  for (const [i, action] of actions.entries()) {
    const left = env.deadline - Date.now();
    if (left <= 0) throw new ToolError(`actions.${i} (${action.type}): not started, the actions' time ran out.`, 'permanent');
    try {
      outcomes.push({ type: action.type, ok: true, ...(await runStep(page, action, left, env)) });
    } catch (err) {
      throw stepError(i, action, err);
    }
  }
  return outcomes;
}

async function runStep(page: Page, a: Action, timeout: number, env: ActionEnv): Promise<Partial<ActionOutcome>> {
  switch (a.type) {
    case 'wait':
      if (a.milliseconds !== undefined) await page.waitForTimeout(Math.min(a.milliseconds, timeout));
      else
        await page
          .locator(a.selector!)
          .first()
          .waitFor({ state: a.state ?? 'visible', timeout });
      return {};
    case 'click': {
      const button = a.button ?? 'left';
      if (!a.all) {
        await page.locator(a.selector).first().click({ button, timeout });
        return {};
      }
      const matches = page.locator(a.selector);
      await matches.first().waitFor({ state: 'attached', timeout });
      const count = Math.min(await matches.count(), MAX_CLICK_ALL);
      const deadline = Date.now() + timeout;
      for (let n = 0; n < count; n++) await matches.nth(n).click({ button, timeout: Math.max(1, deadline - Date.now()) });
      return { result: count };
    }
    case 'fill':
      if (a.selector !== undefined) await page.locator(a.selector).first().fill(a.text, { timeout });
      else await page.keyboard.type(a.text);
      return {};
    case 'press':
      await page.keyboard.press(a.key);
      return {};
    case 'select': {
      const element = page.locator(a.selector).first();
      // The option whose value, or else whose visible label, is the one given.
      const value = await acrossNavigations(page, () =>
        element.evaluate(
          (el, wanted) => {
            const options = el instanceof HTMLSelectElement ? Array.from(el.options) : [];
            return (options.find((o) => o.value === wanted) ?? options.find((o) => o.label.trim() === wanted))?.value ?? null;
          },
          a.value,
          { timeout },
        ),
      );
      if (value === null) throw new ToolError(`no option with the value or label "${a.value.slice(0, 200)}" in "${a.selector.slice(0, 200)}".`, 'permanent');
      await element.selectOption({ value }, { timeout });
      return {};
    }
    case 'hover':
      await page.locator(a.selector).first().hover({ timeout });
      return {};
    case 'scroll':
      if (a.to === 'bottom') return { result: await scrollToLoad(page, Date.now() + timeout) };
      if (a.selector !== undefined) await page.locator(a.selector).first().scrollIntoViewIfNeeded({ timeout });
      else await readPage(page, (by) => window.scrollBy(0, by ?? window.innerHeight), a.amount ?? null);
      return {};
    case 'screenshot': {
      const image = await captureScreenshot(page, { format: 'png', fullPage: a.full_page ?? false, maxHeight: MAX_CAPTURE_HEIGHT, timeoutMs: timeout });
      const link = await (await publishModule()).publishArtifact(env.ctx, image, 'image/png');
      return { file_url: link.file_url };
    }
    case 'scrape': {
      const { html, url, title } = await withinStep(
        acrossNavigations(page, async () => ({ html: await page.content(), url: page.url(), title: await page.title() })),
        timeout,
        'the page',
      );
      const bytes = Buffer.byteLength(html);
      if (bytes > MAX_SCRAPE_BYTES) throw new ToolError(`the page's HTML is ${bytes} bytes, more than the ${MAX_SCRAPE_BYTES}-byte limit.`, 'permanent');
      const link = await (await publishModule()).publishArtifact(env.ctx, Buffer.from(html), 'text/html; charset=utf-8');
      // Short HTML comes inline too, as Firecrawl returns it; longer HTML only through the link.
      const inline = html.length <= MAX_EVALUATE_JSON_CHARS ? { html } : {};
      return { result: { url, title, bytes, ...inline }, file_url: link.file_url };
    }
    case 'pdf': {
      const pdf = await withinStep(
        page.pdf({ format: a.size === 'a4' ? 'A4' : 'Letter', landscape: a.landscape ?? false, printBackground: true }),
        timeout,
        'printing',
      );
      const link = await (await publishModule()).publishArtifact(env.ctx, pdf, 'application/pdf');
      return { result: { pages: await pdfPageCount(pdf) }, file_url: link.file_url };
    }
    case 'evaluate':
      return { result: await evaluateJson(page, a.expression, timeout) };
  }
}

/** Work that takes no timeout of its own, bounded by what is left of the actions' time. */
async function withinStep<T>(work: Promise<T>, timeout: number, what: string): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  const timer = new Promise<never>((_, reject) => {
    t = setTimeout(() => reject(new ToolError(`${what} did not finish within ${Math.round(timeout / 100) / 10} s.`, 'permanent')), timeout);
    t.unref();
  });
  try {
    return await Promise.race([work, timer]);
  } finally {
    clearTimeout(t);
  }
}

/**
 * The expression runs in the page's own context (its origin, its isolated browser context, its proxy),
 * awaited if it is a promise; its value comes back as JSON, serialised in the page so an oversized value
 * never crosses over. When the page navigates before the value comes back, the value is null.
 */
async function evaluateJson(page: Page, expression: string, timeout: number): Promise<unknown> {
  const script = `(async () => {
    const value = await (${expression}
    );
    const json = JSON.stringify(value);
    if (json === undefined) return { json: 'null' };
    return json.length > ${MAX_EVALUATE_JSON_CHARS} ? { tooLong: json.length } : { json };
  })()`;
  const timer = new Promise<never>((_, reject) => {
    const t = setTimeout(() => reject(new ToolError(`the expression did not finish within ${Math.round(timeout / 100) / 10} s.`, 'permanent')), timeout);
    t.unref();
  });
  let out: { json?: string; tooLong?: number };
  try {
    out = (await Promise.race([page.evaluate(script), timer])) as typeof out;
  } catch (err) {
    if (!isNavigationError(err)) throw err;
    // The page navigated before the value came back (the expression navigated, or a step before it did).
    // Not run again: it may have effects. The step is done; what follows works on the new document.
    await documentReady(page, timeout);
    return null;
  }
  if (out.tooLong !== undefined)
    throw new ToolError(`the result is ${out.tooLong} characters of JSON, more than the ${MAX_EVALUATE_JSON_CHARS}-character limit.`, 'permanent');
  return JSON.parse(out.json ?? 'null') as unknown;
}

function stepError(index: number, action: Action, err: unknown): Error {
  const where = `actions.${index} (${action.type})`;
  if (err instanceof ToolError) return new ToolError(`${where}: ${err.message}`, err.kind);
  const error = err as Error;
  const target = 'selector' in action && action.selector !== undefined ? ` "${action.selector.slice(0, 200)}"` : '';
  if (error.name === 'TimeoutError') return new ToolError(`${where}: no usable element matched${target} in time.`, 'permanent');
  // Playwright's first line says what went wrong (a detached element, a bad key, a thrown page error).
  const first = (error.message ?? String(err))
    .split('\n')[0]!
    .replace(/^[\w.]+: /, '')
    .slice(0, 300);
  if (/closed|crashed|disconnected/i.test(first)) return error;
  return new ToolError(`${where}: ${first}`, 'permanent');
}
