// Searches against a running lead service: ranking and radius on fixture pros around real ZIPs, the demo
// dataset, category synonyms and errors, and the free-tier quota with its reset at midnight UTC.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newApiKey } from '../../src/leads/auth.js';
import { importPros } from '../../src/leads/import.js';
import { api, LEAD_STORES, startLeadsForTest, type LeadsUnderTest } from '../support/leads-harness.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'leads');

/** A real key for a new account, issued straight through the store (registration has its own tests). */
async function issueKey(t: LeadsUnderTest, email: string): Promise<string> {
  const k = newApiKey();
  await t.svc.store.issueKey(email, k, Date.now());
  return k.key;
}

async function searchAndWait(t: LeadsUnderTest, key: string, body: Record<string, unknown>) {
  const created = await api(t.url, 'POST', '/v1/searches', { key, body });
  if (created.status !== 202) return created;
  expect(created.body).toEqual({ search_id: expect.stringMatching(/^srch_/), status: 'pending' });
  for (;;) {
    const polled = await api(t.url, 'GET', `/v1/searches/${String(created.body.search_id)}`, { key });
    if (polled.body.status !== 'pending') return polled;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.each(LEAD_STORES)('search over imported pros (%s store)', (store) => {
  let t: LeadsUnderTest;
  let key: string;
  beforeAll(async () => {
    t = await startLeadsForTest({ store });
    const s = await importPros(path.join(fixtures, 'nyc-pros.json'), { config: t.config, store: t.svc.store });
    expect(s.valid).toBe(12);
    key = await issueKey(t, 'searcher@agent-utility.test');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ranks by distance, then rating, inside the default 25-mile radius', async () => {
    const res = await searchAndWait(t, key, { service: 'plumber', zip: '10001' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('complete');
    const results = res.body.results as { name: string; distance_miles: number; id: string; services: string[] }[];
    expect(results.map((r) => r.name)).toEqual([
      'Best Chelsea Plumbing', // 0 mi, 4.9
      'Chelsea Pipe Works', // 0 mi, 4.2
      'Unrated Chelsea Plumber', // 0 mi, no rating
      'West Village Plumbing', // 0.6 mi
      'Midtown Pipes and Wires', // 1.3 mi
      'Hoboken Drain Pros', // 1.9 mi
      'Brooklyn Heights Plumbing', // 3.8 mi
      'White Plains Plumbing', // 23.1 mi (Morristown 25.9, Stamford 32, Princeton 42.9 are outside)
    ]);
    expect(res.body.meta).toMatchObject({ total: 8, dataset: 'imported', service: 'plumber', zip: '10001', radius_miles: 25 });
    for (const r of results) expect(r.distance_miles).toBeLessThanOrEqual(25);
    expect(results[7]?.distance_miles).toBeCloseTo(23.1, 1);
    const first = results[0] as unknown as Record<string, unknown>;
    expect(Object.keys(first).sort()).toEqual(
      ['address', 'description', 'distance_miles', 'id', 'name', 'phone', 'rating', 'review_count', 'services', 'website'].sort(),
    );
    expect(first.id).toMatch(/^pro_/);
  });

  it('honours radius_miles and limit; meta.total counts before the limit', async () => {
    const wide = await searchAndWait(t, key, { service: 'plumber', zip: '10001', radius_miles: 50 });
    const names = (wide.body.results as { name: string }[]).map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(['Morristown Plumbing', 'Stamford Plumbing', 'Princeton Plumbing']));
    expect(names.at(-1)).toBe('Princeton Plumbing');
    expect((wide.body.meta as { total: number }).total).toBe(11);

    const few = await searchAndWait(t, key, { service: 'plumber', zip: '10001', limit: 2 });
    expect((few.body.results as unknown[]).length).toBe(2);
    expect((few.body.meta as { total: number }).total).toBe(8);

    const near = await searchAndWait(t, key, { service: 'plumber', zip: '10001', radius_miles: 1 });
    expect((near.body.results as { name: string }[]).map((r) => r.name)).toEqual([
      'Best Chelsea Plumbing',
      'Chelsea Pipe Works',
      'Unrated Chelsea Plumber',
      'West Village Plumbing',
    ]);
  });

  it('matches synonyms and keeps categories apart', async () => {
    const viaSynonym = await searchAndWait(t, key, { service: 'Leaky Faucet', zip: '10001' });
    expect((viaSynonym.body.meta as { service: string }).service).toBe('plumber');
    const electric = await searchAndWait(t, key, { service: 'electrical', zip: '10001' });
    expect((electric.body.results as { name: string }[]).map((r) => r.name)).toEqual(['Chelsea Electric', 'Midtown Pipes and Wires']);
    const none = await searchAndWait(t, key, { service: 'roofer', zip: '10001' });
    expect(none.body.results).toEqual([]);
    expect(none.body.meta).toMatchObject({ total: 0 });
  });

  it('rejects an unknown service listing the supported ones, and bad ZIPs, naming the field', async () => {
    const unknown = await api(t.url, 'POST', '/v1/searches', { key, body: { service: 'astrologer', zip: '10001' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'UNKNOWN_SERVICE', field: 'service', retry: false });
    expect(String(unknown.body.error)).toContain('plumber, electrician, hvac, roofer, landscaper, handyman, house_cleaning, painter, pest_control, locksmith');

    const shortZip = await api(t.url, 'POST', '/v1/searches', { key, body: { service: 'plumber', zip: '1234' } });
    expect(shortZip.status).toBe(400);
    expect(shortZip.body.field).toBe('zip');
    const nowhere = await api(t.url, 'POST', '/v1/searches', { key, body: { service: 'plumber', zip: '00000' } });
    expect(nowhere.status).toBe(400);
    expect(nowhere.body.code).toBe('UNKNOWN_ZIP');
    const badLimit = await api(t.url, 'POST', '/v1/searches', { key, body: { service: 'plumber', zip: '10001', limit: 101 } });
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.field).toBe('limit');
    const notJson = await fetch(`${t.url}/v1/searches`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'text/plain' },
      body: 'plumber',
    });
    expect(notJson.status).toBe(415);
  });

  it("keeps one key's searches from another", async () => {
    const other = await issueKey(t, 'other@agent-utility.test');
    const created = await api(t.url, 'POST', '/v1/searches', { key, body: { service: 'plumber', zip: '10001' } });
    const peek = await api(t.url, 'GET', `/v1/searches/${String(created.body.search_id)}`, { key: other });
    expect(peek.status).toBe(404);
    const operator = await api(t.url, 'GET', `/v1/searches/${String(created.body.search_id)}`, { key: t.svc.internalApiKey });
    expect(operator.status).toBe(200);
    await t.svc.idle();
  });
});

describe('the demo dataset', () => {
  let t: LeadsUnderTest;
  beforeAll(async () => {
    t = await startLeadsForTest();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is seeded when the directory is empty and cannot be mistaken for real businesses', async () => {
    const res = await searchAndWait(t, t.svc.internalApiKey, { service: 'plumber', zip: '10001' });
    expect(res.body.meta).toMatchObject({ dataset: 'demo' });
    const results = res.body.results as { name: string; phone: string; website: string; description: string }[];
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) {
      expect(r.name).toMatch(/\(Demo\)$/);
      expect(r.phone).toMatch(/^\+1\d{3}55501\d{2}$/);
      expect(new URL(r.website).hostname).toMatch(/\.example$/);
      expect(r.description).toMatch(/^Demo listing/);
    }
    const health = await api(t.url, 'GET', '/healthz');
    expect(health.body).toMatchObject({ ok: true, dataset: 'demo' });
  });

  it('is deterministic: the same pros with the same ids on every install', async () => {
    const other = await startLeadsForTest();
    try {
      const a = await searchAndWait(t, t.svc.internalApiKey, { service: 'hvac', zip: '60601' });
      const b = await searchAndWait(other, other.svc.internalApiKey, { service: 'hvac', zip: '60601' });
      expect(a.body.results).toEqual(b.body.results);
      expect((a.body.results as unknown[]).length).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
  });
});

describe('free-tier quota', () => {
  let t: LeadsUnderTest;
  let clock = Date.parse('2030-01-15T23:00:00Z');
  beforeAll(async () => {
    t = await startLeadsForTest({ overrides: { now: () => clock } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('allows 100 searches a day; the 101st is 429 with Retry-After until midnight UTC, then it resets', async () => {
    const key = await issueKey(t, 'quota@agent-utility.test');
    for (let i = 1; i <= 100; i++) {
      const res = await api(t.url, 'POST', '/v1/searches', { key, body: { service: 'plumber', zip: '10001' } });
      expect(res.status).toBe(202);
      expect(res.headers.get('ratelimit-limit')).toBe('100');
      expect(res.headers.get('ratelimit-remaining')).toBe(String(100 - i));
      expect(res.headers.get('ratelimit-reset')).toBe('3600');
    }
    const spent = await api(t.url, 'POST', '/v1/searches', { key, body: { service: 'plumber', zip: '10001' } });
    expect(spent.status).toBe(429);
    expect(spent.body).toMatchObject({ code: 'QUOTA_EXCEEDED', retry: true });
    expect(spent.headers.get('retry-after')).toBe('3600');
    expect(spent.headers.get('ratelimit-remaining')).toBe('0');

    // Polling is free, and still carries the quota headers.
    const usage = await api(t.url, 'GET', '/v1/usage', { key });
    expect(usage.body.searches).toEqual({ used: 100, limit: 100 });

    clock = Date.parse('2030-01-16T00:00:01Z');
    const nextDay = await api(t.url, 'POST', '/v1/searches', { key, body: { service: 'plumber', zip: '10001' } });
    expect(nextDay.status).toBe(202);
    expect(nextDay.headers.get('ratelimit-remaining')).toBe('99');
    await t.svc.idle();
  });

  it('the operator key has no quota', async () => {
    const res = await api(t.url, 'POST', '/v1/searches', { key: t.svc.internalApiKey, body: { service: 'plumber', zip: '10001' } });
    expect(res.status).toBe(202);
    expect(res.headers.get('ratelimit-limit')).toBeNull();
    await t.svc.idle();
  });
});

describe('category quota', () => {
  let t: LeadsUnderTest;
  beforeAll(async () => {
    t = await startLeadsForTest({ overrides: { limits: { searchesPerDay: 100, requestsPerDay: 50, categoriesPerDay: 2 } } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts distinct categories per day; a new one past the limit is 429, used ones keep working', async () => {
    const k = newApiKey();
    await t.svc.store.issueKey('cats@agent-utility.test', k, Date.now());
    for (const service of ['plumber', 'hvac', 'ac repair']) {
      expect((await api(t.url, 'POST', '/v1/searches', { key: k.key, body: { service, zip: '10001' } })).status).toBe(202);
    }
    const third = await api(t.url, 'POST', '/v1/searches', { key: k.key, body: { service: 'roofer', zip: '10001' } });
    expect(third.status).toBe(429);
    expect(third.body.code).toBe('CATEGORY_QUOTA_EXCEEDED');
    expect(third.headers.get('x-quota-categories-remaining')).toBe('0');
    await t.svc.idle();
  });
});
