// The SQLite claim reads ceil(limit / payers) tasks of each payer first (claim-tasks.sqlite.ts) and must
// claim exactly what reading `limit` of each would: the same ids, in the same order. Random queues (payers
// with and without ids, several tools, due and not yet due tasks, tool limits, excluded tools) are claimed
// to the end on two identical stores, one with each read, and every claim compared.
import { describe, expect, it } from 'vitest';
import { claimTasksSqlite } from '../../src/db/tasks/claim-tasks.sqlite.js';
import { SqliteStore } from '../../src/db/tasks/sqlite-store.js';
import type { ClaimOptions, NewTask, Payer } from '../../src/store/port.js';

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

const TOOLS = ['x.a', 'x.b', 'x.c'];

function queue(rand: () => number, now: number): NewTask[] {
  const payers: Payer[] = Array.from({ length: 1 + Math.floor(rand() * 12) }, (_, i) =>
    i % 4 === 3 ? { kind: 'x402', id: `0xwallet${i}` } : i === 5 ? { kind: 'key', id: null } : { kind: 'key', id: `key_${i}` },
  );
  const tasks: NewTask[] = [];
  for (let i = 0; i < 20 + Math.floor(rand() * 150); i++) {
    // Skewed: the first payers have most of the tasks.
    const payer = payers[Math.floor(rand() ** 2 * payers.length)]!;
    tasks.push({
      id: `task_${String(i).padStart(4, '0')}`,
      tool: TOOLS[Math.floor(rand() * TOOLS.length)]!,
      input: {},
      payer,
      priceMicros: 0,
      maxAttempts: 3,
      // Several tasks share a millisecond; a few are not due yet.
      now: now - 1000 + Math.floor(rand() * 1100),
    });
  }
  return tasks;
}

async function filled(tasks: readonly NewTask[]): Promise<SqliteStore> {
  const store = new SqliteStore(':memory:');
  await store.migrate();
  for (const task of tasks) await store.createTask(task);
  return store;
}

describe('SQLite claim: the short read claims what the full read claims', () => {
  it('on 60 random queues claimed to the end', async () => {
    let claims = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const rand = random(seed);
      const now = Date.now();
      const tasks = queue(rand, now);
      const short = await filled(tasks);
      const full = await filled(tasks);
      for (let round = 0; round < 400; round++) {
        const limit = 1 + Math.floor(rand() * 20);
        const o: ClaimOptions = { owner: 'w', limit, leaseMs: 60_000, now };
        if (rand() < 0.4)
          // A tool with no room is excluded, never given a limit of 0 (as the worker pool asks).
          o.toolLimits = { 'x.a': 1 + Math.floor(rand() * 3), 'x.b': 1 + Math.floor(rand() * limit) };
        if (rand() < 0.2) o.excludeTools = ['x.c'];
        if (rand() < 0.2) o.onlyTools = ['x.a', 'x.b'];
        const a = (await claimTasksSqlite(short.db, o)).map((t) => t.id);
        const b = (await claimTasksSqlite(full.db, o, { fullRead: true })).map((t) => t.id);
        expect(a, `seed ${seed}, round ${round}`).toEqual(b);
        claims++;
        if (a.length === 0 && !o.toolLimits && !o.excludeTools && !o.onlyTools) break;
      }
      await short.close();
      await full.close();
    }
    expect(claims).toBeGreaterThan(60);
  });
});
