// The six-argument claim_tasks that processes of the previous release (1d6b9d1) still call during a rolling
// upgrade writes its lease on the store's clock too (migration 017), like the current claim (016): a lease
// written by an old worker whose clock runs ten minutes ahead is as long as asked, from the store's now,
// not ten minutes longer, so the new sweepers (which compare leases with the store's clock) take the task
// back when it really ends.
import { afterAll, describe, expect, it } from 'vitest';
import { createTestSchema, type TestSchema } from '../support/postgres.js';
import { storeNow } from '../support/store-clock.js';

const AHEAD_MS = 10 * 60_000;
const LEASE_MS = 60_000;
const schemas: TestSchema[] = [];
afterAll(async () => {
  for (const s of schemas) await s.drop();
});

describe('claim_tasks of the previous release (PostgreSQL)', () => {
  it("writes the lease from the store's clock whatever the caller's clock says, and claims what is due by the caller's now", async () => {
    const schema = await createTestSchema();
    schemas.push(schema);
    const store = await schema.openStore({ poolSize: 1 });
    try {
      const now = Date.now();
      const task = { tool: 'x.legacy', input: {}, payer: { kind: 'local' as const, id: 'test' }, priceMicros: 0, maxAttempts: 1, now };
      await store.createTask({ ...task, id: 'task_legacy_due' });
      // Due only by a clock ten minutes ahead: the old claim still decides what is due by its caller's now.
      await store.createTask({ ...task, id: 'task_legacy_later' });
      await store.db.run("UPDATE tasks SET run_after = $1 WHERE id = 'task_legacy_later'", [now + AHEAD_MS / 2]);
      await store.createTask({ ...task, id: 'task_legacy_not_due' });
      await store.db.run("UPDATE tasks SET run_after = $1 WHERE id = 'task_legacy_not_due'", [now + 2 * AHEAD_MS]);
      const ahead = now + AHEAD_MS;
      const before = await storeNow(store);
      const rows = await store.db.all<{ id: string; lease_owner: string; lease_expires_at: unknown; started_at: unknown; attempts: unknown }>(
        'SELECT id, lease_owner, lease_expires_at, started_at, attempts FROM claim_tasks($1, $2, $3, $4, $5, $6) ORDER BY id',
        [ahead, 10, 'old-worker', ahead + LEASE_MS, ['x.legacy'], null],
      );
      const after = await storeNow(store);
      expect(rows.map((r) => r.id)).toEqual(['task_legacy_due', 'task_legacy_later']);
      for (const r of rows) {
        expect(r.lease_owner).toBe('old-worker');
        expect(Number(r.attempts)).toBe(1);
        // The started_at written is still the caller's now, as before.
        expect(Number(r.started_at)).toBe(ahead);
        // The lease ends LEASE_MS after the store's now at the claim, not LEASE_MS after the caller's.
        expect(Number(r.lease_expires_at)).toBeGreaterThanOrEqual(before + LEASE_MS);
        expect(Number(r.lease_expires_at)).toBeLessThanOrEqual(after + LEASE_MS);
      }
    } finally {
      await store.close();
    }
  });
});
