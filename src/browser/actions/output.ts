// What each action step reports in a browser tool's result (present only when actions were given).
import { z } from 'zod';

export const actionOutcome = z.object({
  type: z.string(),
  ok: z.boolean(),
  // evaluate: the expression's JSON value (click with all: how many were clicked; scroll to bottom: steps and heights).
  result: z.unknown().optional(),
  // screenshot: the intermediate image's signed URL. (No descriptions: x402's 402 header carries every schema.)
  file_url: z.string().optional(),
});

export type ActionOutcome = z.output<typeof actionOutcome>;

/** Spread into every browser tool's output object. */
export const actionsOutputShape = {
  actions: z.array(actionOutcome).optional().describe('Per step, in order.'),
};
