// The store's clock, read the way the lease statements read it (dialect.nowMs): a test that lets a short
// lease run out waits until that clock has passed the lease's end, not for a guessed number of
// milliseconds, so the wait is right however slow the machine or the database is.
import { performance } from 'node:perf_hooks';
import type { Sql } from '../../src/db/sql.js';

/** Anything holding a database connection: a task store (SqlTaskStore.db) or a WebhookStore. */
export interface HasDb {
  db: Sql;
}

/** The store's now, in epoch ms. */
export async function storeNow(store: HasDb): Promise<number> {
  const r = await store.db.one<{ now: unknown }>(`SELECT ${store.db.dialect.nowMs} AS now`);
  return Number(r!.now);
}

/** Resolves once the store's clock is past `instant` (a lease's end as written), polling every few ms. */
export async function untilStoreClockPasses(store: HasDb, instant: number, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while ((await storeNow(store)) <= instant) {
    if (performance.now() > deadline) throw new Error(`the store's clock did not pass ${instant} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
