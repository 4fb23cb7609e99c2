// Settling and renewing running tasks by id must read the primary key alone, whatever plan PostgreSQL
// makes of the statement. A worker's connection keeps its statements prepared, and once a plan goes
// generic (not knowing how many ids it gets) PostgreSQL bitmap-ANDed the primary key with tasks_leases,
// which then matched any `status = 'running'`: a bitmap scan never marks an entry dead, so each completion
// read every entry left since the last vacuum (28,000 per completion in a 60-s soak). Migration 020 makes
// tasks_leases name the lease; the sweeper and the running count, which do, still read it. A generic plan
// made while the table was one page scanned the whole table instead, and kept doing so as it grew:
// completions and renewals go through complete_tasks() and renew_leases() (migration 021), whose only
// path is the primary key.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgres } from '../../src/db/dialect.js';
import { types } from '../../src/db/postgres-pool.js';
import { COMPLETE_TASKS_SQL } from '../../src/db/tasks/complete-task.js';
import { ACTIVE_BY_TOOL_SQL, QUEUE_COUNTS_SQL } from '../../src/db/tasks/queue-counts.js';
import { renewLeasesSql } from '../../src/db/tasks/renew-leases.js';
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../support/postgres.js';

const FINISHED = 3000;
const RUNNING = 200;
const OWNER = 'plan-worker';

let schema: TestSchema;

beforeAll(async () => {
  schema = await createTestSchema();
});
afterAll(async () => {
  await schema?.drop();
});

/** FINISHED complete tasks, then RUNNING tasks leased to OWNER. */
async function fill(analyze: boolean): Promise<void> {
  await schema.query('TRUNCATE tasks');
  const now = Date.now();
  await schema.query(
    `INSERT INTO tasks (id, tool, input, status, result, payer_kind, payer_id, max_attempts, attempts, run_after, created_at, started_at, finished_at)
     SELECT 'done_' || i, 'echo', '{}', 'complete', '{}', 'key', 'k' || (i % 4), 3, 1, $2::bigint + i, $2::bigint + i, $2::bigint + i, $2::bigint + i + 1 FROM generate_series(1, $1) i`,
    [FINISHED, now - 100_000],
  );
  await schema.query(
    `INSERT INTO tasks (id, tool, input, status, payer_kind, payer_id, max_attempts, attempts, lease_owner, lease_expires_at, run_after, created_at, started_at)
     SELECT 'run_' || i, 'echo', '{}', 'running', 'key', 'k' || (i % 4), 3, 1, $2, $3::bigint, $4::bigint + i, $4::bigint + i, $4::bigint + i FROM generate_series(1, $1) i`,
    [RUNNING, OWNER, now + 60_000, now - 1000],
  );
  if (analyze) await schema.query('ANALYZE tasks');
}

/**
 * Runs `sql` in a transaction that is rolled back, with the plan cache mode given, and answers the rows
 * it returned and how many scans of tasks_leases and tasks_pkey that transaction made.
 */
async function countScans(mode: 'force_generic_plan' | 'force_custom_plan', sql: string, params: unknown[]) {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, types, options: `-c search_path=${schema.schema}` });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SET LOCAL plan_cache_mode = ${mode}`);
    // Named, as the store sends it: the plan is then made (and kept) as the mode says.
    const r = await client.query({ name: 'under_test', text: sql, values: params });
    const stats = await client.query<{ leases: string; pkey: string }>(
      `SELECT pg_stat_get_xact_numscans('tasks_leases'::regclass) AS leases, pg_stat_get_xact_numscans('tasks_pkey'::regclass) AS pkey`,
    );
    await client.query('ROLLBACK');
    return { rows: r.rowCount, leases: Number(stats.rows[0]!.leases), pkey: Number(stats.rows[0]!.pkey) };
  } finally {
    await client.end();
  }
}

/** The plan PostgreSQL makes of `sql` when scanning the whole table is priced out: which indexes can serve it. */
async function planWithoutSeqscan(sql: string): Promise<string> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, types, options: `-c search_path=${schema.schema}` });
  await client.connect();
  try {
    await client.query('SET enable_seqscan = off');
    const r = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`);
    return r.rows.map((row) => row['QUERY PLAN']).join('\n');
  } finally {
    await client.end();
  }
}

const ids = Array.from({ length: 8 }, (_, i) => `run_${i + 1}`);

describe('settling and renewing by id read the primary key alone (PostgreSQL)', () => {
  for (const analyze of [false, true]) {
    for (const mode of ['force_generic_plan', 'force_custom_plan'] as const) {
      const label = `${mode === 'force_generic_plan' ? 'generic' : 'custom'} plan, ${analyze ? 'analyzed' : 'never analyzed'}`;

      it(`completes a batch through tasks_pkey, not tasks_leases (${label})`, async () => {
        await fill(analyze);
        const r = await countScans(mode, COMPLETE_TASKS_SQL, [ids, ids.map(() => '{"ok":true}'), ids.map(() => Date.now()), OWNER]);
        expect(r.rows).toBe(ids.length);
        expect(r.leases).toBe(0);
        expect(r.pkey).toBeGreaterThan(0);
      });

      it(`renews leases through tasks_pkey, not tasks_leases (${label})`, async () => {
        await fill(analyze);
        const r = await countScans(mode, renewLeasesSql(postgres), [30_000, ids, OWNER]);
        expect(r.rows).toBe(ids.length);
        expect(r.leases).toBe(0);
        expect(r.pkey).toBeGreaterThan(0);
      });
    }
  }

  const smallTableCases = [
    {
      what: 'completes',
      sql: COMPLETE_TASKS_SQL,
      params: (batch: string[]): unknown[] => [batch, batch.map(() => '{}'), batch.map(() => Date.now()), OWNER],
    },
    { what: 'renews leases', sql: renewLeasesSql(postgres), params: (batch: string[]): unknown[] => [30_000, batch, OWNER] },
  ];
  for (const c of smallTableCases) {
    it(`${c.what} through the primary key on a connection that planned it while the table was small`, async () => {
      await schema.query('TRUNCATE tasks');
      const now = Date.now();
      await schema.query(
        `INSERT INTO tasks (id, tool, input, status, payer_kind, max_attempts, attempts, lease_owner, lease_expires_at, run_after, created_at, started_at)
         SELECT 'run_' || i, 'echo', '{}', 'running', 'none', 3, 1, $1, $2::bigint, $3::bigint + i, $3::bigint + i, $3::bigint + i FROM generate_series(1, 20) i`,
        [OWNER, now + 60_000, now - 1000],
      );
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL, types, options: `-c search_path=${schema.schema}` });
      await client.connect();
      try {
        // As a worker's connection does: the statement is prepared (here, its plan made generic) on a
        // table of one page, and kept while the table grows.
        await client.query('SET plan_cache_mode = force_generic_plan');
        const run = (batch: string[]) => client.query({ name: 'small_table', text: c.sql, values: c.params(batch) });
        for (let i = 1; i <= 6; i++) expect((await run([`run_${i}`])).rowCount).toBe(1);
        await schema.query(
          `INSERT INTO tasks (id, tool, input, status, result, payer_kind, max_attempts, attempts, run_after, created_at, finished_at)
           SELECT 'done_' || i, 'echo', '{}', 'complete', '{}', 'none', 3, 1, i, i, i + 1 FROM generate_series(1, $1) i`,
          [FINISHED * 5],
        );
        await client.query('BEGIN');
        expect((await run(['run_7', 'run_8', 'run_9'])).rowCount).toBe(3);
        const scans = await client.query<{ seq: string }>(`SELECT pg_stat_get_xact_numscans('tasks'::regclass) AS seq`);
        await client.query('ROLLBACK');
        // A scan of the whole table would read all 15,000 finished rows for 3 tasks.
        expect(Number(scans.rows[0]!.seq)).toBe(0);
      } finally {
        await client.end();
      }
    });
  }

  it('keeps tasks_leases for the sweeper and the running counts', async () => {
    await fill(false);
    const sweep = await planWithoutSeqscan(`SELECT id FROM tasks WHERE status = 'running' AND lease_expires_at < ${postgres.nowMs} ORDER BY lease_expires_at`);
    expect(sweep).toContain('tasks_leases');
    expect(await planWithoutSeqscan(QUEUE_COUNTS_SQL)).toContain('tasks_leases');
    expect(await planWithoutSeqscan(ACTIVE_BY_TOOL_SQL)).toContain('tasks_leases');
  });
});
