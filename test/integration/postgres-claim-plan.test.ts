// Claiming must cost the same however stale the planner's statistics are. A table analyzed while empty
// is the trap: the planner then believes almost nothing is pending and, left to itself, bitmap-scans
// every pending row and sorts them for a LIMIT of 16. The claim must read only the rows it claims from
// the claim-order index, on a table never analyzed and on one analyzed while empty, then filled.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { types } from '../../src/db/postgres-pool.js';
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../support/postgres.js';

const PENDING = 5000;
const BATCH = 16;

let schema: TestSchema;

beforeAll(async () => {
  schema = await createTestSchema();
});
afterAll(async () => {
  await schema?.drop();
});

/** PENDING tasks of one anonymous payer, then `others` tasks of payer key/k_other, newer than all of them. */
async function fill(analyzeFirst: boolean, others = 0): Promise<void> {
  await schema.query('TRUNCATE tasks');
  if (analyzeFirst) await schema.query('ANALYZE tasks');
  await schema.query(
    `INSERT INTO tasks (id, tool, input, status, payer_kind, max_attempts, run_after, created_at)
     SELECT 'task_' || lpad(i::text, 6, '0'), 'echo', '{}', 'pending', 'none', 3, 1000 + i, 1000 + i FROM generate_series(1, $1) i`,
    [PENDING],
  );
  await schema.query(
    `INSERT INTO tasks (id, tool, input, status, payer_kind, payer_id, max_attempts, run_after, created_at)
     SELECT 'other_' || i, 'echo', '{}', 'pending', 'key', 'k_other', 3, 100000 + i, 100000 + i FROM generate_series(1, $1) i`,
    [others],
  );
}

async function connect(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, types, options: `-c search_path=${schema.schema}` });
  await client.connect();
  return client;
}

/** One claim as a worker makes it (claim_tasks of migration 007), inside the caller's transaction. */
async function claim(client: pg.Client, owner = 'plan-test'): Promise<string[]> {
  const r = await client.query<{ id: string }>('SELECT id FROM claim_tasks($1, $2, $3, $4, $5, NULL, NULL, NULL)', [
    Date.now(),
    BATCH,
    owner,
    Date.now() + 30_000,
    ['echo', 'other'],
  ]);
  return r.rows.map((row) => row.id);
}

/** Claims one batch in a transaction and reads that transaction's own index and table counters. */
async function claimAndCount(): Promise<{ ids: string[]; indexScans: number; indexTuples: number; payerIndexTuples: number; heapFetched: number }> {
  const client = await connect();
  try {
    await client.query('BEGIN');
    const claimed = await claim(client);
    const stats = await client.query<{ scans: string; tuples: string; payer_tuples: string; fetched: string }>(
      `SELECT pg_stat_get_xact_numscans('tasks_claimable'::regclass) AS scans,
              pg_stat_get_xact_tuples_returned('tasks_claimable'::regclass) AS tuples,
              pg_stat_get_xact_tuples_returned('tasks_pending_by_payer'::regclass) AS payer_tuples,
              pg_stat_get_xact_tuples_fetched('tasks'::regclass) AS fetched`,
    );
    await client.query('ROLLBACK');
    const s = stats.rows[0]!;
    return {
      ids: claimed,
      indexScans: Number(s.scans),
      indexTuples: Number(s.tuples),
      payerIndexTuples: Number(s.payer_tuples),
      heapFetched: Number(s.fetched),
    };
  } finally {
    await client.end();
  }
}

describe('claim plan (PostgreSQL)', () => {
  it('never JIT-compiles the claim (its forced sort is priced past jit_above_cost: ~300 ms per claim)', async () => {
    const fns = await schema.query<{ args: number; config: string[] }>(
      `SELECT pronargs AS args, proconfig AS config FROM pg_proc WHERE proname = 'claim_tasks' AND pronamespace = current_schema()::regnamespace
       ORDER BY pronargs`,
    );
    // 003's six-argument claim (no fair-order sort) stays for release 1d6b9d1's processes during a rolling upgrade.
    expect(fns.map((fn) => fn.args)).toEqual([6, 8]);
    expect(fns[1]!.config).toEqual(expect.arrayContaining(['enable_seqscan=off', 'enable_bitmapscan=off', 'enable_sort=off', 'jit=off']));
  });

  for (const analyzeFirst of [false, true]) {
    it(`reads only the claimed rows, in claim order, from the index (${analyzeFirst ? 'analyzed while empty' : 'never analyzed'})`, async () => {
      await fill(analyzeFirst);
      const r = await claimAndCount();
      expect(r.ids).toEqual(Array.from({ length: BATCH }, (_, i) => `task_${String(i + 1).padStart(6, '0')}`));
      expect(r.indexScans).toBe(1);
      // An ordered index scan stops after the batch; a bitmap scan would return all PENDING entries.
      expect(r.indexTuples).toBeLessThanOrEqual(BATCH * 2);
      // Fair order finds the payers (one here) and reads their first rows from the payer index, no more.
      expect(r.payerIndexTuples).toBeLessThanOrEqual(BATCH * 2 + 2);
      expect(r.heapFetched).toBe(0); // bitmap heap scans count here; the ordered scan does not
    });

    it(`a newer payer's tasks share the claim with an older payer's backlog, still bounded (${analyzeFirst ? 'analyzed while empty' : 'never analyzed'})`, async () => {
      await fill(analyzeFirst, 3);
      const r = await claimAndCount();
      expect([...r.ids].sort()).toEqual(
        ['other_1', 'other_2', 'other_3', ...Array.from({ length: BATCH - 3 }, (_, i) => `task_${String(i + 1).padStart(6, '0')}`)].sort(),
      );
      expect(r.indexTuples).toBeLessThanOrEqual(BATCH * 2);
      expect(r.payerIndexTuples).toBeLessThanOrEqual(BATCH * 3 + 4);
      expect(r.heapFetched).toBe(0);
    });
  }

  for (const others of [0, 3]) {
    it(`a worker claiming while another holds the first rows takes the next ones (${others ? 'two payers' : 'one payer'})`, async () => {
      await fill(false, others);
      const first = await connect();
      const second = await connect();
      try {
        // The first claim stays uncommitted, its rows locked, while the second runs.
        await first.query('BEGIN');
        const a = await claim(first, 'first');
        const b = await claim(second, 'second');
        await first.query('COMMIT');
        expect(a).toHaveLength(BATCH);
        expect(b).toHaveLength(BATCH);
        expect(a.filter((id) => b.includes(id))).toEqual([]);
      } finally {
        await first.end();
        await second.end();
      }
    });
  }
});
