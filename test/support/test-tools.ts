// Small tools that exercise the engine's paths (retry, timeout, cancellation, side effects) with real
// behaviour: they really wait, really fail and really count, so the engine is tested without mocks.
import { z } from 'zod';
import { Forbidden, ToolError } from '../../src/errors.js';
import { defineTool, type AnyTool } from '../../src/registry/define-tool.js';

const annotations = { readOnlyHint: true, openWorldHint: false };

export const runCounts = new Map<string, number>();

export const echoTool = defineTool({
  name: 'test.echo',
  title: 'Echo',
  description: 'Returns its input.',
  input: z.object({ value: z.string().min(1, 'must not be empty') }),
  output: z.object({ value: z.string() }),
  price: '0.01',
  annotations,
  timeoutMs: 5_000,
  example: { value: 'hi' },
  run: async (_ctx, input) => ({ value: input.value }),
});

export const flakyTool = defineTool({
  name: 'test.flaky',
  title: 'Flaky',
  description: 'Fails transiently `failures` times (counted per key), then succeeds.',
  input: z.object({ key: z.string(), failures: z.number().int().min(0) }),
  output: z.object({ attempts: z.number() }),
  price: '0.01',
  annotations,
  timeoutMs: 5_000,
  example: { key: 'k', failures: 1 },
  run: async (_ctx, input) => {
    const n = (runCounts.get(input.key) ?? 0) + 1;
    runCounts.set(input.key, n);
    if (n <= input.failures) throw new ToolError(`upstream unavailable (run ${n})`, 'transient');
    return { attempts: n };
  },
});

export const failTool = defineTool({
  name: 'test.fail',
  title: 'Fail',
  description: 'Fails with the given kind.',
  input: z.object({ kind: z.enum(['transient', 'permanent', 'input', 'bug']) }),
  output: z.object({}),
  price: '0.01',
  annotations,
  timeoutMs: 5_000,
  example: { kind: 'permanent' },
  run: async (_ctx, input) => {
    if (input.kind === 'bug') throw new TypeError('secret internal detail');
    throw new ToolError(`failed as asked (${input.kind})`, input.kind);
  },
});

export const sleepTool = defineTool({
  name: 'test.sleep',
  title: 'Sleep',
  description: 'Waits `ms` milliseconds, honouring cancellation; counts runs per key.',
  input: z.object({ ms: z.number().int().min(0), key: z.string().default('sleep') }),
  output: z.object({ slept: z.number() }),
  price: '0.01',
  annotations,
  timeoutMs: 1_500,
  concurrency: 2,
  example: { ms: 10 },
  run: async (ctx, input) => {
    runCounts.set(input.key, (runCounts.get(input.key) ?? 0) + 1);
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(resolve, input.ms);
      ctx.signal.addEventListener('abort', () => {
        clearTimeout(t);
        reject(ctx.signal.reason);
      });
    });
    return { slept: input.ms };
  },
});

export const badOutputTool = defineTool({
  name: 'test.bad_output',
  title: 'Bad output',
  description: 'Returns data that violates its own output schema.',
  input: z.object({}),
  output: z.object({ n: z.number() }),
  price: '0',
  annotations,
  timeoutMs: 1_000,
  example: {},
  run: async () => ({ n: 'not a number' }) as unknown as { n: number },
});

/** Refuses every target in admit() (the hook that may use the network), counting how often it was asked. */
export const admitCalls = { count: 0 };
export const admitTool = defineTool({
  name: 'test.admit',
  title: 'Admit',
  description: 'Refuses its target once the caller has shown how they pay.',
  input: z.object({ target: z.string().min(1) }),
  output: z.object({ target: z.string() }),
  price: '0.01',
  annotations,
  timeoutMs: 5_000,
  example: { target: 'x' },
  async admit() {
    admitCalls.count++;
    throw new Forbidden('Blocked: private address.', 'BLOCKED_TARGET', 'target');
  },
  run: async (_ctx, input) => ({ target: input.target }),
});

export const testTools: AnyTool[] = [echoTool, flakyTool, failTool, sleepTool, badOutputTool];
