// Pure parts of ip.geolocate: address parsing, special ranges, the proxy list, the hosting/mobile
// heuristics and exact region codes. No packets are sent anywhere.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ipv4Cidr, ipv6Cidr, parseIp } from '../../src/geo/ip/ip-address.js';
import { normaliseRecord } from '../../src/geo/ip/city-database.js';
import { exactRegionCode } from '../../src/geo/ip/ip-geolocator.js';
import { isHostingNetwork, isMobileNetwork } from '../../src/geo/ip/network-classes.js';
import { ProxyList, inProxyRanges, parseProxyList } from '../../src/geo/ip/proxy-list.js';
import { specialRangeV4, specialRangeV6 } from '../../src/geo/ip/special-ranges.js';
import { countryName } from '../../src/geo/shared/countries.js';

const special = (ip: string) => {
  const p = parseIp(ip)!;
  return p.family === 4 ? specialRangeV4(p.v4) : specialRangeV6(p.v6);
};

describe('parsing', () => {
  it('reduces IPv4-mapped and NAT64 addresses to the IPv4 address they carry', () => {
    expect(parseIp('::ffff:8.8.8.8')).toMatchObject({ family: 4, lookupAddress: '8.8.8.8', embeddedIn: 'ipv4_mapped' });
    expect(parseIp('64:ff9b::808:808')).toMatchObject({ family: 4, lookupAddress: '8.8.8.8', embeddedIn: 'nat64' });
    expect(parseIp('2001:db8::1')).toMatchObject({ family: 6, embeddedIn: null });
  });

  it('reads the deprecated IPv4-compatible form as the address it is, not as IPv4-mapped', () => {
    const compatible = parseIp('::1.2.3.4')!;
    expect(compatible).toMatchObject({ family: 6, embeddedIn: null });
    expect([...compatible.v6]).toEqual([...parseIp('::102:304')!.v6]);
    expect([...parseIp('2001:db8:0:0:1::1')!.v6]).toEqual([0x20010db8, 0, 0x10000, 1]);
  });

  it('rejects what is not a plain address', () => {
    for (const bad of ['', 'x', '1.2.3', '1.2.3.4/8', 'fe80::1%eth0', '::g']) expect(parseIp(bad), bad).toBeNull();
  });

  it('writes networks as CIDR', () => {
    expect(ipv4Cidr(parseIp('8.8.8.8')!.v4, 24)).toBe('8.8.8.0/24');
    expect(ipv4Cidr(parseIp('8.8.8.8')!.v4, 0)).toBe('0.0.0.0/0');
    expect(ipv6Cidr(parseIp('2001:4860:4860::8888')!.v6, 48)).toBe('2001:4860:4860::/48');
  });
});

describe('special ranges', () => {
  const cases: [string, string | null][] = [
    ['0.1.2.3', 'this_network'],
    ['10.255.255.255', 'private'],
    ['172.31.0.1', 'private'],
    ['172.32.0.1', null],
    ['100.64.0.0', 'shared_address_space'],
    ['127.0.0.1', 'loopback'],
    ['169.254.1.1', 'link_local'],
    ['192.0.0.8', 'ietf_protocol_assignments'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.255', 'documentation'],
    ['198.19.255.255', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['250.1.1.1', 'reserved'],
    ['8.8.8.8', null],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'link_local'],
    ['fc00::1', 'unique_local'],
    ['2001:db8:1::1', 'documentation'],
    ['3fff::1', 'documentation'],
    ['2001:2::1', 'benchmarking'],
    ['ff02::1', 'multicast'],
    ['4000::1', 'reserved'],
    ['::1.2.3.4', 'reserved'],
    ['2001:4860:4860::8888', null],
  ];
  it.each(cases)('%s → %s', (ip, kind) => {
    expect(special(ip)?.kind ?? null).toBe(kind);
  });

  it('names the /3 block of reserved IPv6 space', () => {
    expect(special('4000::1')?.cidr).toBe('4000::/3');
    expect(special('::1.2.3.4')?.cidr).toBe('0::/3');
  });
});

describe('proxy list', () => {
  const list = parseProxyList(
    [
      '# Tor exits',
      '185.220.101.0/24',
      '185.220.101.128/25 # nested',
      '203.0.113.9',
      '',
      '2001:67c:e60::/48',
      '::ffff:198.51.100.0/120',
      'garbage',
      '10.0.0.0/33',
    ].join('\n'),
  );
  const has = (ip: string) => inProxyRanges(list, parseIp(ip)!);

  it('matches CIDRs, single addresses and IPv6 ranges', () => {
    expect(has('185.220.101.0')).toBe(true);
    expect(has('185.220.101.255')).toBe(true);
    expect(has('185.220.102.0')).toBe(false);
    expect(has('203.0.113.9')).toBe(true);
    expect(has('203.0.113.10')).toBe(false);
    expect(has('2001:67c:e60:1::5')).toBe(true);
    expect(has('2001:67c:e61::5')).toBe(false);
    expect(has('198.51.100.77')).toBe(true);
  });

  it('counts entries and reports the lines it could not read', () => {
    expect(list.entries).toBe(5);
    expect(list.rejected).toEqual([8, 9]);
    expect(list.v4.starts.length).toBe(3); // the nested /25 merged into its /24
  });

  it('re-reads the file when it changes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-proxy-'));
    const file = path.join(dir, 'list.txt');
    fs.writeFileSync(file, '192.0.2.0/24\n');
    const proxies = await ProxyList.load(file);
    expect(proxies.contains(parseIp('192.0.2.5')!)).toBe(true);
    fs.writeFileSync(file, '198.51.100.0/24\n');
    fs.utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    expect(await proxies.refresh()).toBe(true);
    expect(proxies.contains(parseIp('192.0.2.5')!)).toBe(false);
    expect(proxies.contains(parseIp('198.51.100.5')!)).toBe(true);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('network heuristics', () => {
  it('knows hosting networks by ASN and by organisation keywords', () => {
    expect(isHostingNetwork(16509, 'Amazon.com, Inc.')).toBe(true);
    expect(isHostingNetwork(64500, 'Example Hosting Ltd')).toBe(true);
    expect(isHostingNetwork(64500, 'Acme Data Center LLC')).toBe(true);
    expect(isHostingNetwork(64500, 'Tiny Cloud Services')).toBe(true);
    expect(isHostingNetwork(7922, 'Comcast Cable Communications, LLC')).toBe(false);
    expect(isHostingNetwork(64500, 'Ghostly Telecom')).toBe(false);
    expect(isHostingNetwork(null, null)).toBe(false);
  });

  it('knows mobile networks by keywords, minus the exclusions', () => {
    expect(isMobileNetwork('T-Mobile USA, Inc.')).toBe(true);
    expect(isMobileNetwork('Telefonica Moviles Argentina S.A.')).toBe(true);
    expect(isMobileNetwork('AT&T Mobility LLC')).toBe(true);
    expect(isMobileNetwork('Comcast Cable Communications, LLC')).toBe(false);
    expect(isMobileNetwork('Spry Wireless Communications Inc')).toBe(false);
    expect(isMobileNetwork('Harris County Mobile Healthcare')).toBe(false);
    expect(isMobileNetwork('Mobileye Vision')).toBe(false);
  });
});

describe('city database records', () => {
  it('reads the DB-IP Lite layout', () => {
    expect(
      normaliseRecord({
        city: 'Mountain View',
        country_code: 'US',
        latitude: 37.42,
        longitude: -122.08,
        postcode: '',
        state1: 'California',
        state2: '',
        timezone: '',
      }),
    ).toEqual({
      city: 'Mountain View',
      region: 'California',
      regionIsoCode: null,
      countryCode: 'US',
      zip: null,
      lat: 37.42,
      lng: -122.08,
      timezone: null,
      accuracyRadiusKm: null,
    });
  });

  it('reads the MaxMind GeoIP2/GeoLite2 City layout, with postal code, time zone and accuracy radius', () => {
    const record = {
      city: { geoname_id: 5375480, names: { en: 'Mountain View', de: 'Mountain View' } },
      continent: { code: 'NA', names: { en: 'North America' } },
      country: { iso_code: 'US', names: { en: 'United States' } },
      location: { accuracy_radius: 20, latitude: 37.386, longitude: -122.0838, metro_code: 807, time_zone: 'America/Los_Angeles' },
      postal: { code: '94035' },
      subdivisions: [{ iso_code: 'CA', names: { en: 'California' } }],
    };
    expect(normaliseRecord(record)).toEqual({
      city: 'Mountain View',
      region: 'California',
      regionIsoCode: 'CA',
      countryCode: 'US',
      zip: '94035',
      lat: 37.386,
      lng: -122.0838,
      timezone: 'America/Los_Angeles',
      accuracyRadiusKm: 20,
    });
  });
});

describe('region codes and country names', () => {
  it('gives a region code only when the name is in an exact table or the database states it', () => {
    expect(exactRegionCode({ countryCode: 'US', region: 'California', regionIsoCode: null })).toBe('CA');
    expect(exactRegionCode({ countryCode: 'US', region: 'District of Columbia', regionIsoCode: null })).toBe('DC');
    expect(exactRegionCode({ countryCode: 'CA', region: 'Quebec', regionIsoCode: null })).toBe('QC');
    expect(exactRegionCode({ countryCode: 'AU', region: 'ACT', regionIsoCode: null })).toBe('ACT');
    expect(exactRegionCode({ countryCode: 'FR', region: 'Ile-de-France', regionIsoCode: null })).toBeNull();
    expect(exactRegionCode({ countryCode: 'US', region: 'Californ', regionIsoCode: null })).toBeNull();
    expect(exactRegionCode({ countryCode: 'FR', region: 'Île-de-France', regionIsoCode: 'IDF' })).toBe('IDF');
    expect(exactRegionCode({ countryCode: 'US', region: 'California', regionIsoCode: 'US-CA' })).toBe('CA');
  });

  it('names countries with ICU and nothing for unknown codes', () => {
    expect(countryName('US')).toBe('United States');
    expect(countryName('de')).toBe('Germany');
    expect(countryName('ZZ')).toBeNull();
    expect(countryName('QQ')).toBeNull();
    expect(countryName(null)).toBeNull();
  });
});
