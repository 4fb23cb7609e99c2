// The per-address and per-key limiters of one process, shared by every front door (REST /v1, MCP, A2A),
// so a key has one budget whichever door it calls. With PostgreSQL they count in a table every API node
// shares; with SQLite (a single API node) in memory.
import type pg from 'pg';
import type { Runtime } from '../runtime.js';
import { RateLimiter, type Limiter } from './rate-limit.js';
import { SharedRateLimiter } from './shared-rate-limit.js';

export interface RequestLimits {
  perAddress: Limiter;
  perKey: Limiter;
}

const byStore = new WeakMap<object, RequestLimits>();

/** The PostgreSQL pool behind the task store, when it is PostgreSQL. */
function poolOf(store: object): pg.Pool | undefined {
  const db = (store as { db?: { dialect?: { name?: string }; pool?: pg.Pool } }).db;
  return db?.dialect?.name === 'postgres' ? db.pool : undefined;
}

export function requestLimits(rt: Pick<Runtime, 'config' | 'store'>): RequestLimits {
  let limits = byStore.get(rt.store);
  if (!limits) {
    const { rateLimitPerIp, rateLimitPerKey, rateLimitWindowS } = rt.config.http;
    const windowMs = rateLimitWindowS * 1000;
    const pool = poolOf(rt.store);
    const make = (name: string, limit: number): Limiter =>
      pool && limit > 0 ? new SharedRateLimiter(pool, name, limit, windowMs) : new RateLimiter(limit, windowMs);
    limits = { perAddress: make('ip', rateLimitPerIp), perKey: make('key', rateLimitPerKey) };
    byStore.set(rt.store, limits);
  }
  return limits;
}
