// The free tier: per account and UTC day, 100 searches, 50 requests and 10 distinct service categories.
// Counters live in the store under the day's date, so "reset at midnight UTC" is simply a new key.
import type { Response } from 'express';
import type { QuotaKind, QuotaLimits, Usage } from './types.js';

export const FREE_TIER: QuotaLimits = { searchesPerDay: 100, requestsPerDay: 50, categoriesPerDay: 10 };

/** "YYYY-MM-DD" of the UTC day containing `ms`. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Whole seconds until the next midnight UTC (at least 1). */
export function secondsUntilUtcMidnight(ms: number): number {
  const next = new Date(ms);
  next.setUTCHours(24, 0, 0, 0);
  return Math.max(1, Math.ceil((next.getTime() - ms) / 1000));
}

export function limitFor(kind: QuotaKind, limits: QuotaLimits): number {
  return kind === 'searches' ? limits.searchesPerDay : limits.requestsPerDay;
}

/**
 * RateLimit-* headers (draft-ietf-httpapi-ratelimit-headers, the widely implemented "-Limit/-Remaining/-Reset"
 * form) for the bucket the endpoint draws on, plus RateLimit-Policy naming every daily limit of the key.
 */
export function setQuotaHeaders(res: Response, kind: QuotaKind, usage: Usage, limits: QuotaLimits, now: number): void {
  const limit = limitFor(kind, limits);
  res.setHeader('RateLimit-Limit', String(limit));
  res.setHeader('RateLimit-Remaining', String(Math.max(0, limit - usage[kind])));
  res.setHeader('RateLimit-Reset', String(secondsUntilUtcMidnight(now)));
  res.setHeader(
    'RateLimit-Policy',
    `${limits.searchesPerDay};w=86400;comment="searches", ${limits.requestsPerDay};w=86400;comment="requests", ${limits.categoriesPerDay};w=86400;comment="categories"`,
  );
  res.setHeader('X-Quota-Categories-Remaining', String(Math.max(0, limits.categoriesPerDay - usage.categories.length)));
}

/** Headers for callers without a key: the per-IP registration limiter. */
export function setIpLimitHeaders(res: Response, limit: number, used: number, resetSeconds: number, windowSeconds: number): void {
  res.setHeader('RateLimit-Limit', String(limit));
  res.setHeader('RateLimit-Remaining', String(Math.max(0, limit - used)));
  res.setHeader('RateLimit-Reset', String(Math.max(0, Math.ceil(resetSeconds))));
  res.setHeader('RateLimit-Policy', `${limit};w=${windowSeconds};comment="registrations per IP"`);
}
