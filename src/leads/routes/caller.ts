// What every lead route needs about its caller: the client address, the authenticated key with its quota
// headers, the daily quota gate, and body parsing with the shared one-sentence errors.
import type { Request, Response } from 'express';
import type { z } from 'zod';
import { InvalidInput, RateLimited } from '../../errors.js';
import { parseOrInvalid } from '../../registry/input-errors.js';
import type { KeyAuthenticator, Principal } from '../auth.js';
import type { Category } from '../categories.js';
import { limitFor, secondsUntilUtcMidnight, setQuotaHeaders, utcDay } from '../quota.js';
import type { LeadStore } from '../store.js';
import type { QuotaKind, QuotaLimits } from '../types.js';

export interface CallerDeps {
  store: LeadStore;
  auth: KeyAuthenticator;
  limits: QuotaLimits;
  now: () => number;
}

export function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw new InvalidInput('The request body must be a JSON object.');
  }
  return parseOrInvalid(schema, body ?? {});
}

export class Callers {
  constructor(private readonly d: CallerDeps) {}

  /** Authenticates and puts the key's quota headers (for `kind`) on the response. */
  async principal(req: Request, res: Response, kind: QuotaKind): Promise<Principal> {
    const principal = await this.d.auth.authenticate(req);
    await this.refreshQuotaHeaders(res, principal, kind);
    return principal;
  }

  async refreshQuotaHeaders(res: Response, principal: Principal, kind: QuotaKind): Promise<void> {
    if (principal.unlimited) {
      // Operator keys have no quota: the per-IP headers set earlier do not describe them either.
      for (const h of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy']) res.removeHeader(h);
      return;
    }
    const at = this.d.now();
    setQuotaHeaders(res, kind, await this.d.store.getUsage(principal.accountId, utcDay(at)), this.d.limits, at);
  }

  /** Counts one use of `kind` in `category` for the caller, or throws the 429 that says which limit is spent. */
  quotaGate(kind: QuotaKind) {
    return async (principal: Principal, category: Category): Promise<void> => {
      if (principal.unlimited) return;
      const { limits } = this.d;
      const at = this.d.now();
      const outcome = await this.d.store.consumeQuota(principal.accountId, utcDay(at), kind, category, limits);
      if (outcome.ok) return;
      const retry = secondsUntilUtcMidnight(at);
      if (outcome.exceeded === 'categories') {
        throw new RateLimited(
          `This key already used ${limits.categoriesPerDay} service categories today (${outcome.usage.categories.join(', ')}); other categories are available again after midnight UTC.`,
          retry,
          'CATEGORY_QUOTA_EXCEEDED',
        );
      }
      throw new RateLimited(`The daily quota of ${limitFor(kind, limits)} ${kind} is spent; it resets at midnight UTC.`, retry, 'QUOTA_EXCEEDED');
    };
  }
}
