// A tool with side effects for the cluster proofs: every run inserts a row in `side_effect_runs`
// (PostgreSQL, the schema the process is configured with) before doing its work, so a test can count
// how often the engine really ran each task. The table deliberately has no unique index on task_id:
// a second run would show up as a second row, not be hidden by a constraint.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { defineService } from '../../src/registry/services.js';

export const SIDE_EFFECT_RUNS_TABLE = `CREATE TABLE IF NOT EXISTS side_effect_runs (
  run_id  text PRIMARY KEY,
  task_id text NOT NULL,
  pid     integer NOT NULL,
  at      bigint NOT NULL
)`;

const runsDb = defineService<pg.Pool>({
  name: 'test-side-effect-runs',
  create: ({ config }) => {
    if (!config.databaseUrl) throw new Error('test.side_effect needs DATABASE_URL');
    const pool = new pg.Pool({ connectionString: config.databaseUrl, options: `-c search_path=${config.database.schema}`, max: 4 });
    pool.on('error', () => undefined);
    return pool;
  },
  dispose: (pool) => pool.end(),
});

export const sideEffectTool = defineTool({
  name: 'test.side_effect',
  title: 'Recorded side effect',
  description: 'Records one run in side_effect_runs, then holds for hold_ms (honouring cancellation).',
  input: z.object({ hold_ms: z.number().int().min(0).max(5_000) }),
  output: z.object({ run_id: z.string() }),
  price: '0.002',
  annotations: { readOnlyHint: false, openWorldHint: false },
  timeoutMs: 10_000,
  sideEffects: true,
  example: { hold_ms: 10 },
  run: async (ctx, input) => {
    const db = await ctx.use(runsDb);
    const runId = randomUUID();
    await db.query('INSERT INTO side_effect_runs (run_id, task_id, pid, at) VALUES ($1, $2, $3, $4)', [runId, ctx.taskId, process.pid, Date.now()]);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, input.hold_ms);
      ctx.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(ctx.signal.reason);
        },
        { once: true },
      );
    });
    return { run_id: runId };
  },
});
