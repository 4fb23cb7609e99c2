// A tool that records each run and then holds until the test opens its gate, with side effects (so the
// engine never runs a task of it twice): fault tests start tasks, break something while they run, let
// them finish during the fault, and then check each ran once.
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';

export const GATED_PRICE_MICROS = 2_000;

export function gatedTool() {
  /** Runs per task id: a second run of any task shows here. */
  const runs = new Map<string, number>();
  let release: () => void = () => undefined;
  let gate = Promise.resolve();
  let onRun: (() => void) | undefined;
  const tool = defineTool({
    name: 'test.gated',
    title: 'Gated',
    description: 'Counts its run, then waits for the test to release it.',
    input: z.object({ n: z.number().int() }),
    output: z.object({ n: z.number() }),
    price: '0.002',
    annotations: { readOnlyHint: false, openWorldHint: false },
    timeoutMs: 60_000,
    sideEffects: true,
    example: { n: 1 },
    run: async (ctx, input) => {
      runs.set(ctx.taskId, (runs.get(ctx.taskId) ?? 0) + 1);
      onRun?.();
      await gate;
      return { n: input.n };
    },
  });
  return {
    tool,
    runs,
    /** Closes the gate: tasks starting from now hold. */
    close() {
      gate = new Promise<void>((resolve) => (release = resolve));
    },
    open: () => release(),
    /** Resolves once `count` tasks have started. */
    started(count: number): Promise<void> {
      return new Promise((resolve) => {
        const check = () => runs.size >= count && resolve();
        onRun = check;
        check();
      });
    },
  };
}
