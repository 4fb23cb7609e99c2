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
import { openPage, RenderBudget, type OpenedPage, type PageSource } from './navigate.js';
import { pageError } from './page-errors.js';
import { DEFAULT_VIEWPORT } from './pool.js';
import { browserPoolService, type BrowserRuntime } from './service.js';

export interface BrowserToolInput {
  url?: string | undefined;
  html?: string | undefined;
  wait: WaitMode;
}

export interface RenderEnv {
  ctx: ToolContext;
  opened: OpenedPage;
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

export interface BrowserToolDefinition<I extends z.ZodType<BrowserToolInput>, O extends z.ZodType> extends Omit<ToolDefinition<I, O>, 'run' | 'precheck' | 'admit'> {
  /** Viewport for this input; default 1280×800. */
  viewport?(input: z.output<I>): { width: number; height: number };
  /** Works with the opened page and returns the tool's output. */
  render(page: Page, input: z.output<I>, env: RenderEnv): Promise<z.output<O>>;
}

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
  const { render, viewport, ...descriptor } = def;
  return defineTool<I, O>({
    ...descriptor,
    async precheck(ctx, input) {
      if (input.url !== undefined) await precheckPageUrl(ctx, input.url);
    },
    async admit(ctx, input) {
      if (input.url !== undefined) await admitPageUrl(ctx, input.url);
    },
    async run(ctx, input) {
      const budget = new RenderBudget(def.timeoutMs);
      let runtime: BrowserRuntime;
      try {
        runtime = await ctx.use(browserPoolService);
      } catch (err) {
        // No Chromium on this machine (the message says how to install one): not the caller's fault.
        throw new ToolError(`The browser is not available: ${(err as Error).message}`, 'permanent');
      }
      const source: PageSource = input.url !== undefined ? { url: input.url } : { html: input.html ?? '' };
      const stage = stageReporter(ctx);
      stage('queued');
      try {
        return await runtime.pool.withPage(
          async (page) => {
            stage('navigating');
            page.setDefaultTimeout(budget.left());
            page.setDefaultNavigationTimeout(budget.left());
            const size = viewport?.(input);
            if (size && (size.width !== DEFAULT_VIEWPORT.width || size.height !== DEFAULT_VIEWPORT.height)) await page.setViewportSize(size);
            const opened = await openPage(page, source, input.wait, budget, runtime.proxy, ctx.log);
            stage('loaded');
            page.setDefaultTimeout(budget.left());
            stage('rendering');
            return await render(page, input, { ctx, opened, budget, runtime, stage });
          },
          { signal: ctx.signal },
        );
      } catch (err) {
        // A cancelled or timed-out task closed its page; report why it stopped, not how.
        if (ctx.signal.aborted) throw ctx.signal.reason;
        throw pageError(err);
      }
    },
  });
}
