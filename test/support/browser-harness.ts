// One browser pool, fixture server and Knot zone per test file: tools are called exactly as the engine
// calls them (parse input, precheck, admit, run, check output) with a real ToolContext sharing one service scope.
import type { z } from 'zod';
import type { AnyTool, ToolContext } from '../../src/registry/define-tool.js';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';
import { startKnot, type KnotServer } from './knot.js';
import { makeToolContext, type TestToolContext } from './tool-context.js';

export interface BrowserHarness {
  fixture: FixtureServer;
  knot: KnotServer;
  base: TestToolContext;
  /** A URL on the fixture server through a name (site.fixture.test) resolved by Knot. */
  siteUrl(path: string): string;
  /** A fresh ToolContext (own task id and abort controller) on the shared scope. */
  context(): ToolContext & { abort(reason?: unknown): void };
  /** Parses input as the registry does, runs precheck, admit and run, and checks the output schema. */
  run<T extends AnyTool>(tool: T, input: unknown, ctx?: ToolContext): Promise<z.output<T['output']>>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  env?: Record<string, string>;
  /** Extra records for the fixture.test zone. */
  records?: string[];
}

export async function startBrowserHarness(opts: HarnessOptions = {}): Promise<BrowserHarness> {
  const fixture = await startFixtureServer();
  const knot = await startKnot([
    {
      origin: 'fixture.test',
      records: [
        'site 300 IN A 127.0.0.1',
        'www.site 300 IN A 127.0.0.1',
        'canary 300 IN A 127.0.0.2',
        // A name answering one allowed and one blocked address must be refused as a whole.
        'mixed 300 IN A 127.0.0.1',
        'mixed 300 IN A 127.0.0.2',
        ...(opts.records ?? []),
      ],
    },
  ]);
  // CHROMIUM_PATH picks the browser for a whole test run (e.g. full chromium vs the headless shell).
  const chromiumPath = process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {};
  const base = makeToolContext({ NETWORK_ALLOWLIST: '127.0.0.1/32', DNS_SERVERS: knot.server, BROWSER_CONCURRENCY: '4', ...chromiumPath, ...opts.env });
  let n = 0;
  const context = () => {
    const controller = new AbortController();
    const id = `task_harness${++n}`;
    return {
      ...base,
      taskId: id,
      idempotencyKey: id,
      signal: controller.signal,
      abort: (reason?: unknown) => controller.abort(reason ?? new Error('cancelled by test')),
    };
  };
  return {
    fixture,
    knot,
    base,
    siteUrl: (path) => `http://site.fixture.test:${fixture.port}${path}`,
    context,
    async run<T extends AnyTool>(tool: T, input: unknown, ctx: ToolContext = context()): Promise<z.output<T['output']>> {
      const parsed = tool.input.parse(input);
      await tool.precheck?.({ config: ctx.config, use: (d) => ctx.use(d) }, parsed);
      await tool.admit?.({ config: ctx.config, use: (d) => ctx.use(d) }, parsed);
      const out = await tool.run(ctx, parsed);
      return tool.output.parse(out) as z.output<T['output']>;
    },
    async close() {
      await base.close();
      await fixture.close();
      await knot.stop();
    },
  };
}
