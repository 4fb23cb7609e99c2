// Which request limiters each store's runtime made. Kept apart from the limiters themselves so the runtime
// can close their pool at shutdown without importing them, and with them the PostgreSQL driver, which a
// process on SQLite (a worker above all) never needs to load.
import type pg from 'pg';
import type { TaskStore } from '../store/port.js';
import type { Limiter } from './rate-limit.js';

export interface RequestLimits {
  perAddress: Limiter;
  perKey: Limiter;
  /** The limiters' own PostgreSQL pool, when they have one (not the store's, which the store closes). */
  readonly ownPool: pg.Pool | undefined;
}

const byStore = new WeakMap<object, RequestLimits>();

export function limitsOf(store: TaskStore): RequestLimits | undefined {
  return byStore.get(store);
}

export function rememberLimits(store: TaskStore, limits: RequestLimits): void {
  byStore.set(store, limits);
}

/**
 * Ends the limiters' own pool of this store's runtime, if they made one (at shutdown, before the store
 * closes). A hit after it counts in memory (the shared limiter's fallback), so nothing fails meanwhile.
 */
export async function closeRequestLimits(store: TaskStore): Promise<void> {
  const limits = byStore.get(store);
  byStore.delete(store);
  if (limits?.ownPool && !limits.ownPool.ended) await limits.ownPool.end();
}
