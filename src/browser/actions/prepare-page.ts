// What a task asked done to its page after load and before capture, in this order: consent dialogs and
// overlays out of the way (so clicks reach the page), the caller's action steps, then scrolling lazy
// content in (after the steps, which may have changed the page). All within one cap and the task's budget.
import type { Page } from 'playwright-core';
import type { Logger } from '../../logger.js';
import type { ToolContext } from '../../registry/define-tool.js';
import type { RenderBudget } from '../navigate.js';
import { dismissOverlays } from './dismiss-overlays.js';
import type { ActionOutcome } from './output.js';
import { runActions } from './run-actions.js';
import { typedActions, type PageActionOptions } from './schema.js';
import { scrollToLoad } from './scroll-to-load.js';

/** Longest time all preparation together may take (less when the task's budget is shorter). */
export const PREPARE_MAX_MS = 45_000;

export interface PrepareEnv {
  ctx: Pick<ToolContext, 'config' | 'use'>;
  budget: RenderBudget;
  log: Logger;
}

/** Runs the preparation; returns each action's outcome when actions were given. */
export async function preparePage(page: Page, input: PageActionOptions, env: PrepareEnv): Promise<ActionOutcome[] | undefined> {
  // What is kept back for capturing stays kept back: forLoading leaves the capture reserve untouched.
  const deadline = Date.now() + env.budget.forLoading(PREPARE_MAX_MS);
  if (input.dismiss_overlays) {
    const report = await dismissOverlays(page, deadline);
    env.log.debug('overlays dismissed', { clicked: report.clicked, removed: report.removed });
  }
  let outcomes: ActionOutcome[] | undefined;
  if (input.actions?.length) outcomes = await runActions(page, typedActions(input.actions), { ctx: env.ctx, deadline });
  if (input.scroll_to_load) {
    const report = await scrollToLoad(page, deadline);
    env.log.debug('scrolled to load', { ...report });
  }
  return outcomes;
}
