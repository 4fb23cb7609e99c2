// The per-address and per-key limiters of one process, shared by every front door (REST /v1, MCP, A2A),
// so a key has one budget whichever door it calls. With PostgreSQL they count in a table every API node
// shares; with SQLite (a single API node) in memory. The runtime closes them (closeRequestLimits, request-limits-registry.ts) before
// the store, so a stopped node leaves no connection of the limiters' own pool behind.
import type pg from 'pg';
import type { Config } from '../config.js';
import { createPool } from '../db/postgres-pool.js';
import type { Logger } from '../logger.js';
import type { TaskStore } from '../store/port.js';
import { RateLimiter, type Limiter } from './rate-limit.js';
import { limitsOf, rememberLimits, type RequestLimits } from './request-limits-registry.js';
import { SharedRateLimiter } from './shared-rate-limit.js';

export type { RequestLimits };

type LimitsRuntime = { config: Config; store: TaskStore; log: Logger };

/**
 * Where the counts go on PostgreSQL: a small pool of their own whose commits do not wait for the WAL flush
 * (synchronous_commit=off; a crash can lose the last few counts, which costs nothing), measured at about 1.5 ms a
 * hit instead of 7.5 ms on the store's pool (bench/RESULTS.md). The store's pool when there is no URL.
 */
function poolFor(rt: LimitsRuntime): pg.Pool | undefined {
  const db = (rt.store as { db?: { dialect?: { name?: string }; pool?: pg.Pool } }).db;
  if (db?.dialect?.name !== 'postgres') return undefined;
  const { databaseUrl, database } = rt.config;
  if (!databaseUrl) return db.pool;
  return createPool({
    connectionString: databaseUrl,
    schema: database.schema,
    poolSize: Math.min(4, database.poolSize),
    applicationName: 'agent-utility-limits',
    serverOptions: '-c synchronous_commit=off',
    allowExitOnIdle: true,
    onError: (err) => rt.log.warn('PostgreSQL connection problem (rate limits); reconnecting', { err }),
  });
}

export function requestLimits(rt: LimitsRuntime): RequestLimits {
  let limits = limitsOf(rt.store);
  if (!limits) {
    const { rateLimitPerIp, rateLimitPerKey, rateLimitWindowS } = rt.config.http;
    const windowMs = rateLimitWindowS * 1000;
    const pool = rateLimitPerIp > 0 || rateLimitPerKey > 0 ? poolFor(rt) : undefined;
    const make = (name: string, limit: number): Limiter =>
      pool && limit > 0 ? new SharedRateLimiter(pool, name, limit, windowMs) : new RateLimiter(limit, windowMs);
    const storePool = (rt.store as { db?: { pool?: pg.Pool } }).db?.pool;
    limits = { perAddress: make('ip', rateLimitPerIp), perKey: make('key', rateLimitPerKey), ownPool: pool && pool !== storePool ? pool : undefined };
    rememberLimits(rt.store, limits);
  }
  return limits;
}
