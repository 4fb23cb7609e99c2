import { describe, expect, it } from 'vitest';
import { EmailDomainCache } from '../../src/email/domain-cache.js';
import type { MailRoute } from '../../src/email/mail-route.js';

const mxRoute: MailRoute = { kind: 'mx', hosts: [{ name: 'mx.a.test', preference: 10 }] };

function clock(start = 1_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('per-domain cache', () => {
  it('looks a route up once per TTL, and again after it expires', async () => {
    const c = clock();
    const cache = new EmailDomainCache({ ttlMs: 60_000, now: c.now });
    let lookups = 0;
    const lookup = async () => (lookups++, mxRoute);
    await cache.route('a.test', lookup);
    await cache.route('a.test', lookup);
    expect(lookups).toBe(1);
    c.advance(60_001);
    await cache.route('a.test', lookup);
    expect(lookups).toBe(2);
    expect(cache.stats()).toMatchObject({ routeHits: 1, routeMisses: 2 });
  });

  it('shares one lookup among concurrent callers of the same domain', async () => {
    const cache = new EmailDomainCache({ ttlMs: 60_000 });
    let lookups = 0;
    let release: (r: MailRoute) => void = () => undefined;
    const lookup = () => (lookups++, new Promise<MailRoute>((r) => (release = r)));
    const all = Promise.all([cache.route('a.test', lookup), cache.route('a.test', lookup), cache.route('a.test', lookup)]);
    release(mxRoute);
    expect(await all).toEqual([mxRoute, mxRoute, mxRoute]);
    expect(lookups).toBe(1);
  });

  it('never stores DNS errors', async () => {
    const cache = new EmailDomainCache({ ttlMs: 60_000 });
    let lookups = 0;
    const lookup = async (): Promise<MailRoute> => (lookups++, { kind: 'dns_error', code: 'ETIMEOUT' });
    await cache.route('a.test', lookup);
    await cache.route('a.test', lookup);
    expect(lookups).toBe(2);
  });

  it('keeps catch-all findings for the TTL', () => {
    const c = clock();
    const cache = new EmailDomainCache({ ttlMs: 1000, now: c.now });
    expect(cache.catchAll('a.test')).toBeUndefined();
    cache.setCatchAll('a.test', true);
    cache.setCatchAll('b.test', false);
    expect(cache.catchAll('a.test')).toBe(true);
    expect(cache.catchAll('b.test')).toBe(false);
    c.advance(1001);
    expect(cache.catchAll('a.test')).toBeUndefined();
  });

  it('is bounded: the least recently used domain goes first', async () => {
    const cache = new EmailDomainCache({ ttlMs: 60_000, maxDomains: 2 });
    cache.setCatchAll('a.test', true);
    cache.setCatchAll('b.test', true);
    expect(cache.catchAll('a.test')).toBe(true); // a is now the most recent
    cache.setCatchAll('c.test', true);
    expect(cache.stats().size).toBe(2);
    expect(cache.catchAll('b.test')).toBeUndefined();
    expect(cache.catchAll('a.test')).toBe(true);
    expect(cache.catchAll('c.test')).toBe(true);
  });

  it('with a TTL of 0 stores nothing and shares nothing', async () => {
    const cache = new EmailDomainCache({ ttlMs: 0 });
    let lookups = 0;
    const lookup = async () => (lookups++, mxRoute);
    await Promise.all([cache.route('a.test', lookup), cache.route('a.test', lookup)]);
    cache.setCatchAll('a.test', true);
    expect(lookups).toBe(2);
    expect(cache.catchAll('a.test')).toBeUndefined();
    expect(cache.enabled).toBe(false);
  });
});
