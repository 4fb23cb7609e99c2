// defineBrowserTool: the precondition wrapper every browser tool goes through. It checks the
// target at submission, takes a fresh page from the pool, sets the viewport, opens the url or html the
// safe way, and only then hands the page to the tool's render(); errors come out as task errors.
import type { Page } from 'playwright-core';
import type { z } from 'zod';
import { ToolError } from '../errors.js';
import { netGuardService } from '../net/guard.js';
import { BlockedTargetError } from '../net/errors.js';
import { defineTool, type SubmitContext, type ToolContext, type ToolDefinition } from '../registry/define-tool.js';
import type { WaitMode } from './input-schemas.js';
import { wantsPreparation } from './actions/schema.js';
import { lazyModule } from '../registry/lazy-module.js';
import type { LoadedPage } from './loaded-page.js';
import type { OpenedPage, PageSource, RenderBudget } from './navigate.js';
import { contextOptionsFor, headerOrigin, playwrightCookies, type PageOptions } from './page-options.js';
import { cacheKey, readCached, writeCached } from './result-cache.js';
import type { BrowserRuntime } from './service.js';

// The pool, navigation and proxy code: loaded with the first page, so a process that only lists the
// browser tools (a worker for other tools, the HTTP front door) never loads it.
const pageModules = lazyModule(() =>
  Promise.all([
    import('./navigate.js'),
    import('./page-errors.js'),
    import('./pool.js'),
    import('./service.js'),
    import('./document-fetch.js'),
    import('./bot-wall-check.js'),
    import('./loaded-page.js'),
    import('./page-reads.js'),
  ]),
);
// Actions, overlays and lazy content: loaded with the first task asking for any of them.
const prepareModule = lazyModule(() => import('./actions/prepare-page.js'));
// The artifact store holds cached results: loaded with the first cached request.
const artifactModule = lazyModule(() => import('../artifacts/service.js'));

export interface BrowserToolInput extends PageOptions {
  url?: string | undefined;
  html?: string | undefined;
  wait: WaitMode;
}

export interface RenderEnv {
  ctx: ToolContext;
  /** The page as opened; after a read, `loaded.current` says which document was read. */
  opened: OpenedPage;
  /**
   * Reads of the loaded page that survive a page script navigating (and stop page scripts first): every
   * read of the DOM goes through it, not through page.evaluate or page.content.
   */
  loaded: LoadedPage;
  budget: RenderBudget;
  runtime: BrowserRuntime;
  /** Reports a stage as progress (MCP notifications/progress); render() reports 'storing' itself. */
  stage(stage: BrowserStage): void;
}

/** The stages every browser task goes through, in order (progress i+1 of their count). */
export const BROWSER_STAGES = ['queued', 'navigating', 'loaded', 'rendering', 'storing'] as const;
export type BrowserStage = (typeof BROWSER_STAGES)[number];

const STAGE_MESSAGES: Record<BrowserStage, string> = {
  queued: 'queued: waiting for a browser page',
  navigating: 'navigating: opening the page',
  loaded: 'loaded: the page is ready',
  rendering: 'rendering: producing the result',
  storing: 'storing: saving the file',
};

function stageReporter(ctx: ToolContext): (stage: BrowserStage) => void {
  return (stage) => ctx.progress(BROWSER_STAGES.indexOf(stage) + 1, BROWSER_STAGES.length, STAGE_MESSAGES[stage]);
}

export interface BrowserToolDefinition<I extends z.ZodType<BrowserToolInput>, O extends z.ZodType> extends Omit<
  ToolDefinition<I, O>,
  'run' | 'precheck' | 'admit'
> {
  /** Viewport for this input; default 1280×800. */
  viewport?(input: z.output<I>): { width: number; height: number };
  /** Works with the opened page and returns the tool's output. */
  render(page: Page, input: z.output<I>, env: RenderEnv): Promise<z.output<O>>;
  /**
   * render() judges the page for a bot wall itself, from the HTML it reads anyway (readHtmlCheckingBotWall),
   * so the wrapper does not read the page a second time to check it. Only for a tool without actions.
   */
  checksBotWall?: true;
  /**
   * render() reads the DOM (not pixels): once the page is ready (after any actions) its scripts are stopped,
   * so that no script navigation replaces the document while it is read (src/browser/loaded-page.ts). A
   * screenshot or PDF leaves them running: a page may still be drawing.
   */
  readsDom?: true;
  /**
   * render() may use `opened.serverHtml` (the HTML the server sent, before any script ran): the page's first
   * document response is paused until that HTML is read, so a script navigating right after load cannot
   * drop it (src/browser/server-html.ts). The page then parses only once all of its HTML has arrived, which
   * costs a rendered crawl about a quarter of its throughput: only for a tool that falls back to it. Without
   * it, serverHtml (and the copy LoadedPage shows when a script leaves for a page that cannot be read) is the
   * browser's copy, which such a navigation may have dropped.
   */
  keepsServerHtml?: true;
  /**
   * Tasks of this tool for one payer may see one another's page state (cookies, storage a site set): a
   * tab goes from one such task to the next on the same origin without being wiped. Only for a tool whose
   * pages are one caller's crawl, without settings of their own; other tasks still get the tab wiped.
   */
  sharesTabs?: true;
  /** False for a result that must not be reused (e.g. a screenshot that stayed blank); default true. */
  cacheable?(output: z.output<O>): boolean;
  /**
   * Reads the URL as a document when its response is a file (a download, or a non-HTML type such as PDF,
   * JSON or text) instead of a page; without it such a URL fails as before. Runs after the page is released.
   */
  readDocument?(input: z.output<I> & { url: string }, env: DocumentEnv): Promise<z.output<O>>;
}

export interface DocumentEnv {
  ctx: ToolContext;
  budget: RenderBudget;
  /** The Content-Type the browser saw (a hint only: readers sniff the bytes). */
  contentType: string | null;
}

/** What the page callback returns when the response is a document for readDocument. */
const DOCUMENT = Symbol('document');

/** Refuses a URL with a blocked scheme or literal address, without any DNS (before payment; 403 BLOCKED_TARGET). */
export async function precheckPageUrl(ctx: SubmitContext, url: string): Promise<void> {
  const guard = await ctx.use(netGuardService);
  try {
    guard.checkUrl(url);
  } catch (err) {
    if (err instanceof BlockedTargetError) throw err.toForbidden('url');
    throw err;
  }
}

/** Refuses a URL whose name resolves to a blocked address, once the caller has shown how they pay (403). */
export async function admitPageUrl(ctx: SubmitContext, url: string): Promise<void> {
  const guard = await ctx.use(netGuardService);
  try {
    await guard.resolve(guard.checkUrl(url).hostname);
  } catch (err) {
    if (err instanceof BlockedTargetError) throw err.toForbidden('url');
    // A name that does not resolve (yet) is the task's to report; the proxy checks again at connect time.
  }
}

export function defineBrowserTool<I extends z.ZodType<BrowserToolInput>, O extends z.ZodType>(def: BrowserToolDefinition<I, O>): ToolDefinition<I, O> {
  const {
    render: _render,
    viewport: _viewport,
    cacheable: _cacheable,
    readDocument: _readDocument,
    checksBotWall: _checksBotWall,
    readsDom: _readsDom,
    keepsServerHtml: _keepsServerHtml,
    sharesTabs: _sharesTabs,
    ...descriptor
  } = def;
  return defineTool<I, O>({
    ...descriptor,
    async precheck(ctx, input) {
      if (input.url !== undefined) await precheckPageUrl(ctx, input.url);
    },
    async admit(ctx, input) {
      if (input.url !== undefined) await admitPageUrl(ctx, input.url);
    },
    async run(ctx, input) {
      const key = input.cache_ttl_s > 0 ? cacheKey(def.name, input as unknown as Record<string, unknown>, ctx.payerScope ?? 'none') : undefined;
      if (key !== undefined) {
        const { artifactStoreService } = await artifactModule();
        const hit = await readCached(await ctx.use(artifactStoreService), key, input.cache_ttl_s);
        if (hit !== undefined && descriptor.output.safeParse(hit).success) return { ...(hit as object), cached: true } as z.output<O>;
      }
      const output = await renderFresh(def, ctx, input);
      if (key !== undefined && (def.cacheable?.(output) ?? true)) {
        try {
          await writeCached(await ctx.use((await artifactModule()).artifactStoreService), key, output);
        } catch (err) {
          // The result is good without its cache entry; the next identical request renders again.
          ctx.log.warn('could not store the result for reuse', { err });
        }
      }
      return output;
    },
  });
}

async function renderFresh<I extends z.ZodType<BrowserToolInput>, O extends z.ZodType>(
  def: BrowserToolDefinition<I, O>,
  ctx: ToolContext,
  input: z.output<I>,
): Promise<z.output<O>> {
  const [
    { openPage, RenderBudget },
    { pageError, DownloadError, navigationError },
    { DEFAULT_VIEWPORT },
    { browserPoolService },
    { isDocumentContentType },
    { checkBotWall, checkBotWallAfterFailure, watchMainResponse },
    { LoadedPage },
    { navigationSafeReader },
  ] = await pageModules();
  const budget = new RenderBudget(Math.min(def.timeoutMs, input.timeout_ms ?? def.timeoutMs));
  let runtime: BrowserRuntime;
  try {
    runtime = await ctx.use(browserPoolService);
  } catch (err) {
    // No Chromium on this machine (the message says how to install one): not the caller's fault.
    throw new ToolError(`The browser is not available: ${(err as Error).message}`, 'permanent');
  }
  const source: PageSource = input.url !== undefined ? { url: input.url } : { html: input.html ?? '' };
  const size = def.viewport?.(input);
  // Headers, cookies, device and the rest get a context of the task's own, closed with the task.
  const contextOptions = contextOptionsFor(input, size);
  const stage = stageReporter(ctx);
  stage('queued');
  let documentType: string | null = null;
  try {
    const output = await runtime.pool.withPage(
      async (page): Promise<z.output<O> | typeof DOCUMENT> => {
        stage('navigating');
        page.setDefaultTimeout(budget.left());
        page.setDefaultNavigationTimeout(budget.left());
        if (
          input.device === undefined &&
          !contextOptions?.viewport &&
          size &&
          (size.width !== DEFAULT_VIEWPORT.width || size.height !== DEFAULT_VIEWPORT.height)
        ) {
          await page.setViewportSize(size);
        }
        if (input.cookies?.length) await page.context().addCookies(playwrightCookies(input));
        const origin = headerOrigin(input);
        if (input.headers && origin !== undefined && Object.keys(input.headers).length > 0) await routeCallerHeaders(page, origin, input.headers);
        if (input.block?.length) {
          const blocked = new Set<string>(input.block);
          // Aborted here, in the browser: a blocked request never reaches the proxy or the network.
          await page.context().route('**/*', (route) => (blocked.has(route.request().resourceType()) ? route.abort('blockedbyclient') : route.fallback()));
        }
        let opened: OpenedPage;
        const mainResponse = source.url !== undefined && input.wait_for !== undefined ? watchMainResponse(page) : undefined;
        try {
          opened = await openPage(page, source, input.wait, budget, runtime.proxy, ctx.log, {
            waitFor: input.wait_for,
            delayMs: input.delay_ms,
            keepServerHtml: def.keepsServerHtml === true,
          });
        } catch (err) {
          if (def.readDocument && source.url !== undefined && err instanceof DownloadError) return DOCUMENT;
          // A wall never shows the element waited for: say it is a wall rather than that the selector is missing.
          if (mainResponse && err instanceof ToolError) await checkBotWallAfterFailure(page, mainResponse.last());
          throw err;
        } finally {
          mainResponse?.stop();
        }
        // Navigations wait for the page's server HTML to be read until it is, or until the task is done here.
        const stopKeeping = opened.stopKeeping;
        if (def.readDocument && source.url !== undefined && isDocumentContentType(opened.contentType)) {
          await stopKeeping?.();
          documentType = opened.contentType;
          return DOCUMENT;
        }
        // The copy of the page to read when a script sends it somewhere that cannot be read.
        const kept = source.url !== undefined ? (opened.serverHtml ?? (() => Promise.resolve(null))) : () => Promise.resolve(source.html);
        const loaded = new LoadedPage(page, opened, {
          state: input.wait === 'dom' ? 'domcontentloaded' : 'load',
          budget,
          kept,
          refused: (url) => navigationError(new Error('proxy refused'), url, runtime.proxy),
        });
        const prepares = wantsPreparation(input);
        // Without actions, the page shown now is the page read: page scripts stop before the first read.
        if (def.readsDom && !prepares) loaded.hold(opened);
        try {
          // A challenge, captcha or block page fails the task here, before anything of it is captured.
          if (source.url !== undefined && !def.checksBotWall) await checkBotWall(loaded, opened);
          stage('loaded');
          page.setDefaultTimeout(budget.left());
          let actions: Awaited<ReturnType<Awaited<ReturnType<typeof prepareModule>>['preparePage']>> | undefined;
          if (prepares) {
            // A step may navigate (a click on a link, a submitted search): a wall reached that way fails the task too.
            const navigation = source.url !== undefined ? watchMainResponse(page) : undefined;
            try {
              actions = await (await prepareModule()).preparePage(page, input, { ctx, budget, log: ctx.log });
            } finally {
              navigation?.stop();
            }
            const reached = navigation?.last();
            // final_url and status_code describe the page captured, the one a click or a search led to.
            if (reached) opened = { ...reached, url: page.url() };
            else if (source.url !== undefined) opened = { ...opened, url: page.url() };
            // From here the page shown is the page read: later script navigations do not replace it.
            // A page the actions led to has no kept copy of its own (only its history entry).
            if (def.readsDom) loaded.hold(opened, reached ? () => Promise.resolve(null) : undefined);
            if (reached) await checkBotWall(def.readsDom ? loaded : navigationSafeReader(page), reached);
          }
          page.setDefaultTimeout(budget.left());
          stage('rendering');
          const rendered = await def.render(page, input, { ctx, opened, loaded, budget, runtime, stage });
          return actions ? ({ ...(rendered as object), actions } as z.output<O>) : rendered;
        } finally {
          loaded.stop();
          await stopKeeping?.();
        }
      },
      {
        signal: ctx.signal,
        contextOptions,
        url: source.url,
        share: def.sharesTabs && ctx.payerScope !== undefined ? `${def.name} ${ctx.payerScope}` : undefined,
      },
    );
    if (output !== DOCUMENT) return output;
    stage('loaded');
    stage('rendering');
    return await def.readDocument!({ ...input, url: input.url! }, { ctx, budget, contentType: documentType });
  } catch (err) {
    // A cancelled or timed-out task closed its page; report why it stopped, not how.
    if (ctx.signal.aborted) throw ctx.signal.reason;
    throw pageError(err);
  }
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Only requests for the page's own origin carry the caller's headers: never a third-party script, image or
 * frame, nor a redirect to another origin. Chromium keeps a request's modified headers when it follows a
 * redirect (and does not route the new hop), so a request for the origin is made here, through the same
 * guarded proxy (the launch's proxy setting), without following redirects; the browser then follows a
 * redirect itself, as a new request that is routed and judged by its own origin.
 */
async function routeCallerHeaders(page: Page, origin: string, headers: Record<string, string>): Promise<void> {
  const extra = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
  await page.context().route('**/*', async (route) => {
    const request = route.request();
    if (originOf(request.url()) !== origin) return route.fallback();
    let response;
    try {
      response = await route.fetch({ headers: { ...request.headers(), ...extra }, maxRedirects: 0 });
    } catch {
      // Refused by the guard, unreachable, or the page went away: the browser sees a failed request.
      return route.abort('failed').catch(() => undefined);
    }
    await route.fulfill({ response }).catch(() => undefined);
  });
}
