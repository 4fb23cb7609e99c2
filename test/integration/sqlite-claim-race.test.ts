// The SQLite claim chooses its tasks on a snapshot, without the write lock, and then takes each one only
// while it is still pending (claim-tasks.sqlite.ts). Two connections to one file (a `worker` process and
// another, or two pools) may choose the same tasks; each task must still be claimed once, and none lost.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/db/tasks/sqlite-store.js';
import type { NewTask } from '../../src/store/port.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function twoConnections(): Promise<[SqliteStore, SqliteStore]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-sqlite-claim-race-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'agent-utility.db');
  const a = new SqliteStore(file, { busy: 'yield' });
  await a.migrate();
  const b = new SqliteStore(file, { busy: 'yield' });
  cleanups.push(
    () => a.close(),
    () => b.close(),
  );
  return [a, b];
}

function task(i: number, now: number): NewTask {
  return {
    id: `task_${String(i).padStart(4, '0')}`,
    tool: i % 3 === 0 ? 'x.a' : 'x.b',
    input: {},
    payer: { kind: 'key', id: `key_${i % 5}` },
    priceMicros: 0,
    maxAttempts: 3,
    now,
  };
}

describe('SQLite claim from two connections to one file', () => {
  it('two claims that chose the same tasks take each of them once', async () => {
    const [a, b] = await twoConnections();
    const now = Date.now();
    for (let i = 0; i < 10; i++) await a.createTask(task(i, now));
    // Started together, both choose from the same snapshot (every task pending) before either takes any.
    const [fromA, fromB] = await Promise.all([
      a.claimTasks({ owner: 'a', limit: 10, leaseMs: 60_000, now }),
      b.claimTasks({ owner: 'b', limit: 10, leaseMs: 60_000, now }),
    ]);
    const ids = [...fromA, ...fromB].map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(Array.from({ length: 10 }, (_, i) => task(i, now).id));
    for (const t of fromA) expect(t).toMatchObject({ status: 'running', leaseOwner: 'a', attempts: 1 });
    for (const t of fromB) expect(t).toMatchObject({ status: 'running', leaseOwner: 'b', attempts: 1 });
  });

  it('claiming and creating on both at once: every task claimed exactly once, none left behind', async () => {
    const [a, b] = await twoConnections();
    const now = Date.now();
    const total = 400;
    const claimed = new Map<string, string>();
    let created = 0;
    const creator = async (store: SqliteStore, from: number) => {
      for (let i = from; i < total; i += 2) {
        await store.createTask(task(i, now));
        created++;
      }
    };
    const claimer = async (store: SqliteStore, owner: string) => {
      // Until every task exists and none is left pending for this claimer.
      for (;;) {
        const got = await store.claimTasks({ owner, limit: 7, leaseMs: 60_000, now });
        for (const t of got) {
          expect(claimed.has(t.id), `${t.id} claimed twice`).toBe(false);
          claimed.set(t.id, owner);
        }
        if (got.length === 0 && created === total) return;
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    await Promise.all([creator(a, 0), creator(b, 1), claimer(a, 'a'), claimer(b, 'b'), claimer(b, 'b2')]);
    expect(claimed.size).toBe(total);
    // Both sides took part (the race is real), and the rows agree with what the claims answered.
    expect(new Set(claimed.values()).size).toBeGreaterThan(1);
    const rows = a.db.raw.prepare("SELECT id, lease_owner FROM tasks WHERE status = 'running'").all() as { id: string; lease_owner: string }[];
    expect(new Map(rows.map((r) => [r.id, r.lease_owner]))).toEqual(claimed);
  });
});
