// A Limiter every API node shares: hits are counted in the PostgreSQL table rate_limit_windows (migration
// 010), one upsert per hit (rate-limiter-flexible's RateLimiterPostgres), so N nodes allow a key or an
// address its limit once, not N times. Should the database not answer, the count falls back to this
// process's memory for that hit (the library's insurance limiter) rather than refusing or failing requests.
import type pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterRes } from 'rate-limiter-flexible';
import type { HitResult, Limiter } from './rate-limit.js';

/** The table of migration 010 (found through the pool's search_path, i.e. the configured schema). */
const TABLE = 'rate_limit_windows';

export class SharedRateLimiter implements Limiter {
  private readonly counter: RateLimiterPostgres;

  constructor(
    pool: pg.Pool,
    /** Keeps the counts of different limiters apart in the one table ("key", "ip"). */
    name: string,
    readonly limit: number,
    readonly windowMs: number,
  ) {
    const duration = Math.max(1, Math.round(windowMs / 1000));
    this.counter = new RateLimiterPostgres({
      storeClient: pool,
      storeType: 'pool',
      tableName: TABLE,
      tableCreated: true,
      keyPrefix: name,
      points: Math.max(1, limit),
      duration,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix: name, points: Math.max(1, limit), duration }),
    });
  }

  async hit(key: string, _now = Date.now(), count = 1): Promise<HitResult> {
    // penalty() adds the hits and answers the window's total whether or not it is over the limit.
    const r: RateLimiterRes = await this.counter.penalty(key, count);
    return {
      allowed: r.consumedPoints <= this.limit,
      remaining: Math.max(0, this.limit - r.consumedPoints),
      resetS: Math.max(1, Math.ceil(r.msBeforeNext / 1000)),
    };
  }
}
