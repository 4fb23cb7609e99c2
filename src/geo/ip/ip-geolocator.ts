// ip.geolocate's engine: special ranges first (a complete result naming the range), then the city
// database, the ASN index, and the enrichment derived from them (country name, exact region code, time
// zone from coordinates, hosting/mobile heuristics, the operator's proxy list). Enrichment is cached per
// database record and per AS number and organisation, so a lookup costs little more than the two searches.
import tzLookup from '@photostructure/tz-lookup';
import { NO_ORG, type AsnIndex } from './asn-index.js';
import { normaliseRecord, type CityDatabase, type CityLocation, type DataSourceInfo } from './city-database.js';
import { ipv4Cidr, ipv6Cidr, parseIp, type ParsedIp } from './ip-address.js';
import { isHostingNetwork, isMobileNetwork } from './network-classes.js';
import type { ProxyList } from './proxy-list.js';
import { describeSpecialRange, specialRangeV4, specialRangeV6 } from './special-ranges.js';
import { countryName } from '../shared/countries.js';
import { subdivisionByCode, subdivisionByName } from '../shared/subdivisions.js';

interface LocationPart {
  city: string | null;
  region: string | null;
  region_code: string | null;
  country: string | null;
  country_code: string | null;
  zip: string | null;
  lat: number | null;
  lng: number | null;
  timezone: string | null;
  accuracy_radius_km: number | null;
}

interface NetworkPart {
  isp: string | null;
  organization: string | null;
  as: string | null;
  asn: number | null;
  is_mobile: boolean;
  is_hosting: boolean;
}

/** The tool's result: where the address is, who runs its network, and what the data says about both. */
export interface IpGeolocation extends LocationPart, NetworkPart {
  ip: string;
  is_proxy: boolean;
  network: string | null;
  reserved_range: string | null;
  message: string | null;
  source: DataSourceInfo;
  asn_source: DataSourceInfo;
}

const NO_NETWORK: NetworkPart = { isp: null, organization: null, as: null, asn: null, is_mobile: false, is_hosting: false };

export interface IpGeolocatorParts {
  city: CityDatabase;
  citySource: DataSourceInfo;
  asn: AsnIndex;
  proxies: ProxyList | null;
}

/** Enrichment computed once per database record, kept on the record object itself (cheaper than a WeakMap). */
const LOCATION_PART = Symbol('agent-utility.locationPart');
type CachedRecord = Record<string, unknown> & { [LOCATION_PART]?: LocationPart };

export class IpGeolocator {
  /** Per AS number and organisation: far fewer entries than ranges. */
  private readonly networkCache = new Map<number, NetworkPart>();
  readonly asnSource: DataSourceInfo;

  constructor(private readonly parts: IpGeolocatorParts) {
    const s = parts.asn.header.source;
    this.asnSource = {
      name: `IP to ASN: RouteViews, NRO and DB-IP IP to ASN Lite (${s.package} ${s.version})`,
      build_date: s.build_date,
      licence: 'CC BY 4.0',
      url: 'https://github.com/sapics/ip-location-db',
    };
  }

  get citySource(): DataSourceInfo {
    return this.parts.citySource;
  }

  /** Null when `text` is not an IP address (the tool's schema rejects those before this is reached). */
  async geolocate(text: string): Promise<IpGeolocation | null> {
    const ip = parseIp(text);
    if (!ip) return null;
    const special = this.special(text, ip);
    if (special) return special;
    const found = this.parts.city.lookupIfOpen(ip) ?? (await this.parts.city.lookup(ip));
    return this.assemble(text.trim(), ip, found.record as CachedRecord | null, found.prefixLength);
  }

  private special(text: string, ip: ParsedIp): IpGeolocation | null {
    const range = ip.family === 4 ? specialRangeV4(ip.v4) : specialRangeV6(ip.v6);
    if (!range) return null;
    const address = text.trim();
    return {
      ip: address,
      ...emptyLocation(),
      ...NO_NETWORK,
      is_proxy: false,
      network: range.cidr,
      reserved_range: range.kind,
      message: describeSpecialRange(address, range),
      source: this.parts.citySource,
      asn_source: this.asnSource,
    };
  }

  private assemble(address: string, ip: ParsedIp, record: CachedRecord | null, prefixLength: number): IpGeolocation {
    const l = record ? this.locationPart(record) : EMPTY_LOCATION;
    const n = this.networkPart(ip);
    // Written out rather than spread: this runs for every lookup.
    return {
      ip: address,
      city: l.city,
      region: l.region,
      region_code: l.region_code,
      country: l.country,
      country_code: l.country_code,
      zip: l.zip,
      lat: l.lat,
      lng: l.lng,
      timezone: l.timezone,
      isp: n.isp,
      organization: n.organization,
      as: n.as,
      asn: n.asn,
      is_mobile: n.is_mobile,
      is_proxy: this.parts.proxies ? this.parts.proxies.contains(ip) : false,
      is_hosting: n.is_hosting,
      network: record ? cidrOf(ip, prefixLength) : null,
      accuracy_radius_km: l.accuracy_radius_km,
      reserved_range: null,
      message: record ? null : 'No location data for this address in the IP database.',
      source: this.parts.citySource,
      asn_source: this.asnSource,
    };
  }

  private locationPart(record: CachedRecord): LocationPart {
    let part = record[LOCATION_PART];
    if (!part) {
      const loc = normaliseRecord(record);
      part = {
        city: loc.city,
        region: loc.region,
        region_code: exactRegionCode(loc),
        country: countryName(loc.countryCode),
        country_code: loc.countryCode,
        zip: loc.zip,
        lat: round4(loc.lat),
        lng: round4(loc.lng),
        timezone: loc.timezone ?? timezoneAt(loc),
        accuracy_radius_km: loc.accuracyRadiusKm,
      };
      // Symbol-keyed: invisible to JSON, Object.keys and for…in, so to anything else reading the record.
      record[LOCATION_PART] = part;
    }
    return part;
  }

  private networkPart(ip: ParsedIp): NetworkPart {
    const asn = this.parts.asn;
    let asNumber: number;
    let orgId: number;
    if (ip.family === 4) {
      const i = asn.findV4(ip.v4);
      if (i < 0) return NO_NETWORK;
      asNumber = asn.v4Asn(i);
      orgId = asn.v4OrgId(i);
    } else {
      const i = asn.findV6(ip.v6);
      if (i < 0) return NO_NETWORK;
      asNumber = asn.v6Asn(i);
      orgId = asn.v6OrgId(i);
    }
    const orgCount = asn.header.orgCount;
    const key = asNumber * (orgCount + 1) + (orgId === NO_ORG ? orgCount : orgId);
    let part = this.networkCache.get(key);
    if (!part) {
      const org = asn.orgName(orgId);
      part = {
        isp: org,
        organization: org,
        as: org ? `AS${asNumber} ${org}` : `AS${asNumber}`,
        asn: asNumber,
        is_mobile: isMobileNetwork(org),
        is_hosting: isHostingNetwork(asNumber, org),
      };
      this.networkCache.set(key, part);
    }
    return part;
  }
}

function emptyLocation(): LocationPart {
  return {
    city: null,
    region: null,
    region_code: null,
    country: null,
    country_code: null,
    zip: null,
    lat: null,
    lng: null,
    timezone: null,
    accuracy_radius_km: null,
  };
}

const EMPTY_LOCATION: LocationPart = emptyLocation();

/** Only when the database states the ISO code, or the region name is in our exact tables: never guessed. */
export function exactRegionCode(loc: Pick<CityLocation, 'countryCode' | 'region' | 'regionIsoCode'>): string | null {
  if (!loc.countryCode) return null;
  if (loc.regionIsoCode) {
    const known = subdivisionByCode(loc.countryCode, loc.regionIsoCode);
    return known ? known.code : loc.regionIsoCode.replace(new RegExp(`^${loc.countryCode}-`, 'i'), '');
  }
  return loc.region ? (subdivisionByName(loc.countryCode, loc.region)?.code ?? null) : null;
}

/**
 * Time zone from coordinates, only for a city-level answer: a country-level point (the database's
 * country centroid) would name an arbitrary zone of a country that spans several.
 */
function timezoneAt(loc: CityLocation): string | null {
  if (!loc.city || loc.lat === null || loc.lng === null) return null;
  try {
    return tzLookup(loc.lat, loc.lng);
  } catch {
    return null;
  }
}

function round4(v: number | null): number | null {
  return v === null ? null : Math.round(v * 1e4) / 1e4;
}

function cidrOf(ip: ParsedIp, prefix: number): string {
  return ip.family === 4 ? ipv4Cidr(ip.v4, Math.min(32, prefix)) : ipv6Cidr(ip.v6, Math.min(128, prefix));
}
