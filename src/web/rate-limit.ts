// Fixed-window rate limits per API key and per client address, with the IETF RateLimit-* headers. The
// counting is a Limiter: this process's memory (RateLimiter, one API node on SQLite, the console's sign-in),
// or a table every API node shares (shared-rate-limit.ts, with DATABASE_URL; see request-limits.ts).
import type { NextFunction, Request, Response } from 'express';
import type { ServerResponse } from 'node:http';
import { RateLimited } from '../errors.js';

/** What a hit tells the headers. */
export interface HitResult {
  allowed: boolean;
  remaining: number;
  resetS: number;
}

/** Counts hits per key in fixed windows; limit 0 disables it. */
export interface Limiter {
  readonly limit: number;
  readonly windowMs: number;
  hit(key: string, now?: number, count?: number): HitResult | Promise<HitResult>;
}

interface Window {
  start: number;
  count: number;
}

/** A Limiter in this process's memory. */
export class RateLimiter implements Limiter {
  private readonly windows = new Map<string, Window>();
  private lastSweep = 0;

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Counts `count` hits; returns what the headers should say. limit 0 disables the limiter. */
  hit(key: string, now = Date.now(), count = 1): HitResult {
    if (this.limit <= 0) return { allowed: true, remaining: Number.POSITIVE_INFINITY, resetS: 0 };
    if (now - this.lastSweep > this.windowMs) this.sweep(now);
    let w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count += count;
    const resetS = Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
    return { allowed: w.count <= this.limit, remaining: Math.max(0, this.limit - w.count), resetS };
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
  }
}

/** Counts `count` requests (a JSON-RPC batch counts each call) and throws 429 once over the limit. */
export async function applyRateLimit(limiter: Limiter, key: string, res: Pick<ServerResponse, 'setHeader'>, count = 1): Promise<void> {
  if (limiter.limit <= 0) return;
  const r = await limiter.hit(key, Date.now(), count);
  res.setHeader('RateLimit-Limit', String(limiter.limit));
  res.setHeader('RateLimit-Remaining', String(r.remaining));
  res.setHeader('RateLimit-Reset', String(r.resetS));
  res.setHeader('RateLimit-Policy', `${limiter.limit};w=${Math.round(limiter.windowMs / 1000)}`);
  if (!r.allowed) throw new RateLimited(`Too many requests; try again in ${r.resetS} s.`, r.resetS);
}

/** Counts one request from a client address (Express's req.ip, or the socket's address on the fast lane). */
export function applyAddressLimit(limiter: Limiter, address: string | undefined, res: Pick<ServerResponse, 'setHeader'>): Promise<void> {
  return applyRateLimit(limiter, `ip:${address ?? 'unknown'}`, res);
}

/** Middleware limiting by client address (API-key limits are applied once the key is known). */
export function ipRateLimit(limiter: Limiter) {
  return (req: Request, res: Response, next: NextFunction) => {
    applyAddressLimit(limiter, req.ip, res).then(() => next(), next);
  };
}
