// What each action step reports in a browser tool's result (present only when actions were given).
import { z } from 'zod';

export const actionOutcome = z.object({
  type: z.string(),
  ok: z.boolean(),
  result: z.unknown().optional().describe('evaluate: the JSON value of the expression.'),
  file_url: z.string().optional().describe('screenshot: signed URL of the intermediate image.'),
});

export type ActionOutcome = z.output<typeof actionOutcome>;

/** Spread into every browser tool's output object. */
export const actionsOutputShape = {
  actions: z.array(actionOutcome).optional().describe('Each action step in order, when actions were given.'),
};
