// geo.locate with a remote geocoder (GEOCODER_KIND + GEOCODER_URL) against a loopback server answering in
// each provider's documented format. The requests go through the real network guard, opened for
// 127.0.0.1 only by NETWORK_ALLOWLIST; nothing leaves the machine.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '../../src/errors.js';
import geoLocate, { geoLocateInput } from '../../tools/geo.locate.js';
import { startLocalServer, type LocalServer } from '../support/local-http.js';
import { makeToolContext, type TestToolContext } from '../support/tool-context.js';

interface Seen {
  path: string;
  params: URLSearchParams;
  userAgent: string;
  at: number;
}

let server: LocalServer;
const seen: Seen[] = [];

// Documented answer shapes (Nominatim jsonv2 with addressdetails, Pelias and Photon GeoJSON).
const NOMINATIM_PLACE = {
  place_id: 1,
  licence: 'Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright',
  osm_type: 'way',
  osm_id: 2,
  lat: '37.4224857',
  lon: '-122.0855846',
  category: 'building',
  type: 'yes',
  place_rank: 30,
  importance: 0.4,
  addresstype: 'building',
  name: 'Google Building 40',
  display_name: 'Google Building 40, 1600, Amphitheatre Parkway, Mountain View, Santa Clara County, California, 94043, United States',
  address: {
    building: 'Google Building 40',
    house_number: '1600',
    road: 'Amphitheatre Parkway',
    city: 'Mountain View',
    county: 'Santa Clara County',
    state: 'California',
    'ISO3166-2-lvl4': 'US-CA',
    postcode: '94043',
    country: 'United States',
    country_code: 'us',
  },
  boundingbox: ['37.4221', '37.4228', '-122.0861', '-122.0850'],
};

const PELIAS_ANSWER = {
  geocoding: { version: '0.2', attribution: 'http://pelias.test/attribution', query: { text: 'Springfield, IL' } },
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [-89.650148, 39.781721] },
      properties: {
        id: '85940429',
        gid: 'whosonfirst:locality:85940429',
        layer: 'locality',
        source: 'whosonfirst',
        name: 'Springfield',
        confidence: 0.8,
        match_type: 'exact',
        accuracy: 'centroid',
        country: 'United States',
        country_a: 'USA',
        region: 'Illinois',
        region_a: 'IL',
        county: 'Sangamon County',
        locality: 'Springfield',
        label: 'Springfield, IL, USA',
      },
    },
  ],
  bbox: [-89.8, 39.6, -89.5, 39.9],
};

const PHOTON_ANSWER = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [13.3889, 52.517] },
      properties: {
        osm_id: 3,
        osm_type: 'N',
        osm_key: 'building',
        osm_value: 'yes',
        type: 'house',
        housenumber: '43',
        street: 'Friedrichstraße',
        postcode: '10117',
        city: 'Berlin',
        state: 'Berlin',
        country: 'Germany',
        countrycode: 'DE',
        name: 'Quartier 206',
      },
    },
  ],
};

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

function handler(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://local');
  seen.push({ path: url.pathname, params: url.searchParams, userAgent: String(req.headers['user-agent'] ?? ''), at: Date.now() });
  switch (url.pathname) {
    case '/nominatim/search':
      return answer(res, 200, url.searchParams.get('q')?.startsWith('nothing') ? [] : [NOMINATIM_PLACE]);
    case '/pelias/v1/search':
      return answer(res, 200, PELIAS_ANSWER);
    case '/photon/api':
      return answer(res, 200, PHOTON_ANSWER);
    case '/down/search':
      return answer(res, 503, { error: 'overloaded' });
    case '/garbage/search':
      return answer(res, 200, '<html>not json</html>');
    case '/wrong-shape/search':
      return answer(res, 200, { not: 'an array' });
    default:
      return answer(res, 404, {});
  }
}

beforeAll(async () => {
  server = await startLocalServer({ handler });
});
afterAll(async () => server?.close());

const contexts: TestToolContext[] = [];
afterAll(async () => {
  for (const c of contexts) await c.close();
});

function contextFor(kind: string, path: string, env: Record<string, string> = {}): TestToolContext {
  const ctx = makeToolContext({ GEOCODER_KIND: kind, GEOCODER_URL: `${server.origin}${path}`, NETWORK_ALLOWLIST: '127.0.0.1/32', ...env });
  contexts.push(ctx);
  return ctx;
}

const locate = (ctx: TestToolContext, address: string) => geoLocate.run(ctx, geoLocateInput.parse({ address }));
const requestsTo = (path: string) => seen.filter((s) => s.path === path);

describe('Nominatim', () => {
  let ctx: TestToolContext;
  beforeAll(() => {
    ctx = contextFor('nominatim', '/nominatim', { GEOCODER_MIN_INTERVAL_MS: '300', GEOCODER_USER_AGENT: 'agent-utility-test/1.0 (ops@agent-utility.test)' });
  });

  it('maps a building answer to address precision with every component', async () => {
    const r = await locate(ctx, '1600 Amphitheatre Parkway, Mountain View, CA');
    expect(r).toMatchObject({
      lat: 37.42249,
      lng: -122.08558,
      precision: 'address',
      confidence: 0.95,
      candidates: 1,
      components: {
        house_number: '1600',
        street: 'Amphitheatre Parkway',
        city: 'Mountain View',
        state: 'California',
        state_code: 'CA',
        country: 'United States',
        country_code: 'US',
        postal_code: '94043',
      },
    });
    expect(r.formatted_address).toContain('1600, Amphitheatre Parkway, Mountain View');
    expect(r.source).toEqual({ kind: 'nominatim', attribution: expect.stringContaining('OpenStreetMap'), fallback_reason: null });
    expect(geoLocate.output.safeParse(r).success).toBe(true);
  });

  it('asks in the documented form, with the configured User-Agent', () => {
    const [first] = requestsTo('/nominatim/search');
    expect(first!.params.get('q')).toBe('1600 Amphitheatre Parkway, Mountain View, CA');
    expect(first!.params.get('format')).toBe('jsonv2');
    expect(first!.params.get('addressdetails')).toBe('1');
    expect(first!.params.get('limit')).toBe('1');
    expect(first!.userAgent).toBe('agent-utility-test/1.0 (ops@agent-utility.test)');
  });

  it('answers a repeated query from its cache', async () => {
    const before = requestsTo('/nominatim/search').length;
    const again = await locate(ctx, '1600  Amphitheatre Parkway, Mountain View, CA');
    expect(again.source.kind).toBe('nominatim');
    expect(requestsTo('/nominatim/search').length).toBe(before);
  });

  it('spaces requests to one host by GEOCODER_MIN_INTERVAL_MS', async () => {
    await Promise.all([locate(ctx, 'Amphitheatre Parkway one'), locate(ctx, 'Amphitheatre Parkway two')]);
    const times = requestsTo('/nominatim/search').map((s) => s.at);
    const last = times[times.length - 1]!;
    const previous = times[times.length - 2]!;
    // A lower bound only: the limiter can never let the second request out sooner.
    expect(last - previous).toBeGreaterThanOrEqual(250);
  });

  it('falls back to the embedded data when Nominatim finds nothing, and says so', async () => {
    const r = await locate(ctx, 'nothing here, Springfield, IL');
    expect(r.source).toMatchObject({ kind: 'embedded', fallback_reason: 'nominatim found no match' });
    expect(r.components).toMatchObject({ city: 'Springfield', state_code: 'IL' });
  });
});

describe('Pelias', () => {
  it('maps layer, its confidence score, region code, and the country code from the name', async () => {
    const ctx = contextFor('pelias', '/pelias');
    const r = await locate(ctx, 'Springfield, IL');
    expect(r).toMatchObject({
      lat: 39.78172,
      lng: -89.65015,
      precision: 'locality',
      confidence: 0.64,
      formatted_address: 'Springfield, IL, USA',
      components: { city: 'Springfield', state: 'Illinois', state_code: 'IL', country: 'United States', country_code: 'US', street: null, house_number: null },
    });
    expect(r.source).toEqual({ kind: 'pelias', attribution: 'Pelias (http://pelias.test/attribution)', fallback_reason: null });
    expect(requestsTo('/pelias/v1/search')[0]!.params.get('text')).toBe('Springfield, IL');
    expect(requestsTo('/pelias/v1/search')[0]!.params.get('size')).toBe('1');
    expect(requestsTo('/pelias/v1/search')[0]!.userAgent).toMatch(/^agent-utility\/\S+ \(\+http:\/\//);
  });
});

describe('Photon', () => {
  it('maps a house answer to address precision', async () => {
    const ctx = contextFor('photon', '/photon');
    const r = await locate(ctx, 'Friedrichstraße 43, Berlin');
    expect(r).toMatchObject({
      precision: 'address',
      confidence: 0.95,
      components: {
        house_number: '43',
        street: 'Friedrichstraße',
        city: 'Berlin',
        state: 'Berlin',
        country: 'Germany',
        country_code: 'DE',
        postal_code: '10117',
      },
      formatted_address: 'Quartier 206, 43 Friedrichstraße, 10117 Berlin, Germany',
    });
    expect(r.source.kind).toBe('photon');
    expect(requestsTo('/photon/api')[0]!.params.get('q')).toBe('Friedrichstraße 43, Berlin');
  });
});

describe('fallback to the embedded data', () => {
  it.each([
    ['/down', 'nominatim answered HTTP 503'],
    ['/garbage', 'nominatim request failed: answer is not JSON'],
    ['/wrong-shape', 'nominatim answered in an unexpected format: Nominatim answered something other than a JSON array'],
  ])('%s → embedded answer with the reason', async (path, reason) => {
    const ctx = contextFor('nominatim', path);
    const r = await locate(ctx, 'Paris, France');
    expect(r.source).toMatchObject({ kind: 'embedded', fallback_reason: reason });
    expect(r.components.country_code).toBe('FR');
  });

  it('fails with both reasons when neither the remote nor the embedded data matches', async () => {
    const ctx = contextFor('nominatim', '/nominatim');
    const err = await locate(ctx, 'nothing qwxzv plorkt').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect((err as ToolError).kind).toBe('permanent');
    expect((err as ToolError).message).toMatch(
      /^No place matches "nothing qwxzv plorkt" \(nominatim found no match; the embedded data has no match either\)\.$/,
    );
  });

  it('goes through the network guard: a loopback geocoder without NETWORK_ALLOWLIST is never contacted', async () => {
    const ctx = makeToolContext({ GEOCODER_KIND: 'nominatim', GEOCODER_URL: `${server.origin}/guarded` });
    contexts.push(ctx);
    const r = await locate(ctx, 'Paris, France');
    expect(r.source.kind).toBe('embedded');
    expect(r.source.fallback_reason).toMatch(/blocked/i);
    expect(requestsTo('/guarded/search')).toHaveLength(0);
  });
});
