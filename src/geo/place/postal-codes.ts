// The postal codes geo.locate knows beyond US ZIPs (see postal-sources.ts for the countries and sources).
// Read from dist/data when the package was packed, else from the per-user cache, else built from the source
// packages of a checkout and cached; with none of these, lookups find nothing and geo.locate says so.
import fs from 'node:fs/promises';
import path from 'node:path';
import { geoCacheFile, shippedDataFile } from '../shared/data-files.js';
import { buildPostalTable, postalSourceVersions, type PostalEntry, type PostalTable } from './postal-sources.js';

export const POSTAL_FILE = 'postal-codes-v1.json';

export interface PostalCode {
  country: string;
  code: string;
  /** Place names the code serves, most typical first. */
  names: string[];
  /** The region as the source writes it (an ISO 3166-2 code or a name), or null. */
  region: string | null;
  /** The code's own centroid, when the source has one. */
  point: { lat: number; lng: number } | null;
  /** True for a code that names a district of several full codes (a Canadian forward sortation area). */
  district: boolean;
}

interface PostalFile {
  sources: Record<string, string>;
  countries: PostalTable;
}

/** How a written code is keyed in each country's table (a full Canadian code by its forward sortation area). */
const KEY_OF: Record<string, (code: string) => string | null> = {
  CA: (c) => (/^[A-Z]\d[A-Z]( ?\d[A-Z]\d)?$/i.test(c) ? c.slice(0, 3).toUpperCase() : null),
  AU: (c) => (/^\d{4}$/.test(c) ? c : null),
  DE: (c) => (/^\d{5}$/.test(c) ? c : null),
  FR: (c) => (/^\d{5}$/.test(c) ? c : null),
  FI: (c) => (/^\d{5}$/.test(c) ? c : null),
  NO: (c) => (/^\d{4}$/.test(c) ? c : null),
  TR: (c) => (/^\d{5}$/.test(c) ? c : null),
  MY: (c) => (/^\d{5}$/.test(c) ? c : null),
  // A PIN is sometimes written with a space after its first three digits ("110 001").
  IN: (c) => (/^\d{3} ?\d{3}$/.test(c) ? c.replace(' ', '') : null),
};

/** Codes that stand for a district rather than one delivery area, by country. */
const DISTRICT_CODES = new Set(['CA']);

/**
 * The shortest leading run of digits two codes must share to be taken as neighbours, by country: in these
 * countries a code's leading digits name the sorting area it belongs to (a German Leitbereich, a French
 * département and the office under it, an Indian sorting district, a Turkish province's plate number, a
 * Malaysian delivery area), so the codes of one run lie together.
 * A country missing here has no such order (Canada's tables are keyed by district already).
 */
const NEIGHBOUR_PREFIX: Record<string, number> = { AU: 2, DE: 2, FR: 2, FI: 2, NO: 2, IN: 3, TR: 2, MY: 2 };

export class PostalCodes {
  /** Each country's codes in order, built when first asked for neighbours. */
  private readonly sorted = new Map<string, string[]>();

  constructor(private readonly table: PostalTable) {}

  static empty(): PostalCodes {
    return new PostalCodes(Object.create(null) as PostalTable);
  }

  get countries(): string[] {
    return Object.keys(this.table);
  }

  get size(): number {
    return Object.values(this.table).reduce((n, codes) => n + Object.keys(codes).length, 0);
  }

  /** The code in `country`, or in every country whose table has it when `country` is null. */
  lookup(code: string, country: string | null): PostalCode[] {
    const written = code.trim();
    const out: PostalCode[] = [];
    for (const c of country ? [country] : Object.keys(this.table)) {
      const key = KEY_OF[c]?.(written);
      const rows = this.table[c];
      if (!key || !rows || !Object.hasOwn(rows, key)) continue;
      out.push(toPostalCode(c, key, rows[key]!));
    }
    return out;
  }

  /**
   * The codes of `country` that share the longest leading run of digits with `code` (at least the country's
   * NEIGHBOUR_PREFIX), nearest first; `code` itself is left out. For a code the table lacks (a firm's own
   * code, "76089": the employment agency in Karlsruhe) or whose town the data does not place, its
   * neighbours say where it lies. Each call also returns the shared run (`prefix`).
   */
  *neighbourRuns(code: string, country: string): Generator<{ prefix: string; codes: PostalCode[] }> {
    const min = NEIGHBOUR_PREFIX[country];
    const key = KEY_OF[country]?.(code.trim());
    const rows = this.table[country];
    if (min === undefined || !key || !rows) return;
    const keys = this.sortedKeys(country, rows);
    for (let len = key.length - 1; len >= min; len--) {
      const prefix = key.slice(0, len);
      const found: string[] = [];
      for (let i = lowerBound(keys, prefix); i < keys.length && keys[i]!.startsWith(prefix); i++) if (keys[i] !== key) found.push(keys[i]!);
      if (found.length === 0) continue;
      const n = Number(key);
      found.sort((a, b) => Math.abs(Number(a) - n) - Math.abs(Number(b) - n));
      yield { prefix, codes: found.map((k) => toPostalCode(country, k, rows[k]!)) };
    }
  }

  private sortedKeys(country: string, rows: Record<string, PostalEntry>): string[] {
    let keys = this.sorted.get(country);
    if (!keys) this.sorted.set(country, (keys = Object.keys(rows).sort()));
    return keys;
  }
}

/** The first index of sorted `keys` whose key is not below `prefix`. */
function lowerBound(keys: readonly string[], prefix: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < prefix) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function toPostalCode(country: string, code: string, [names, region, lat, lng]: PostalEntry): PostalCode {
  return {
    country,
    code,
    names: names.split('|'),
    region,
    point: lat !== null && lng !== null ? { lat, lng } : null,
    district: DISTRICT_CODES.has(country),
  };
}

/** Loads the table: shipped file, then the cache (when built from the same package versions), then a build. */
export async function loadPostalCodes(options: { cacheFile?: string | null } = {}): Promise<PostalCodes> {
  const shipped = await readPostalFile(shippedDataFile(POSTAL_FILE));
  if (shipped) return new PostalCodes(shipped.countries);
  const sources = postalSourceVersions();
  const file = options.cacheFile === undefined ? geoCacheFile(POSTAL_FILE) : options.cacheFile;
  const cached = file ? await readPostalFile(file) : null;
  if (cached && sameSources(cached.sources, sources)) return new PostalCodes(cached.countries);
  if (Object.keys(sources).length <= 1) return PostalCodes.empty();
  const countries = buildPostalTable();
  if (file) await writePostalFile(file, { sources, countries });
  return new PostalCodes(countries);
}

/** Writes the table for `npm pack` (dist/data) or the cache. */
export async function writePostalFile(file: string, data: PostalFile = { sources: postalSourceVersions(), countries: buildPostalTable() }): Promise<void> {
  try {
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await fs.writeFile(tmp, JSON.stringify(data));
    await fs.rename(tmp, file);
  } catch {
    // a read-only install: the table stays in memory for this process
  }
}

async function readPostalFile(file: string): Promise<PostalFile | null> {
  try {
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as PostalFile;
    return parsed && typeof parsed === 'object' && parsed.countries && parsed.sources ? parsed : null;
  } catch {
    return null;
  }
}

function sameSources(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => a[k] === b[k]);
}
