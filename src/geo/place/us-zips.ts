// US ZIP centroids from the zipcodes package (BSD), as rows the gazetteer and the lead service share. The
// package is a 5 MB JavaScript object literal that takes V8 2–3 s to compile on a loaded machine, which was
// most of the first homeservices call and a good part of the gazetteer's load; the same rows as JSON parse
// in tens of milliseconds. So they are read from dist/data when the package was packed (scripts/pack-data.mjs),
// else from the per-user cache (written by the first process that needed them), else taken from the package
// (and cached, best effort: a read-only home keeps them in memory for this process only).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { geoCacheFile, shippedDataFile } from '../shared/data-files.js';

export const US_ZIPS_FILE = 'us-zips-v1.json';

/** One ZIP as the zipcodes package writes it. A few hundred military codes sit at 0,0 (no known place). */
export interface UsZip {
  zip: string;
  latitude: number;
  longitude: number;
  city: string;
  state: string;
}

type Row = [zip: string, city: string, state: string, lat: number, lng: number];

interface UsZipFile {
  /** The zipcodes version the rows come from (a cache built from another version is rebuilt). */
  source: string;
  rows: Row[];
}

const require = createRequire(import.meta.url);
let loaded: UsZip[] | undefined;

/** Every US ZIP of the zipcodes package, loaded once per process. */
export function usZips(options: { cacheFile?: string | null } = {}): UsZip[] {
  if (loaded && options.cacheFile === undefined) return loaded;
  const shipped = readFile(shippedDataFile(US_ZIPS_FILE));
  if (shipped) return (loaded = fromRows(shipped.rows));
  const source = packageVersion();
  const file = options.cacheFile === undefined ? geoCacheFile(US_ZIPS_FILE) : options.cacheFile;
  const cached = file ? readFile(file) : null;
  if (cached && cached.source === source) return (loaded = fromRows(cached.rows));
  const data = buildUsZipFile();
  if (file) writeUsZipFile(file, data);
  return (loaded = fromRows(data.rows));
}

/** The rows from the installed zipcodes package (pack time, or a checkout's first use). */
export function buildUsZipFile(): UsZipFile {
  const { codes } = require('zipcodes/lib/codes.js') as { codes: Record<string, UsZip & { country?: string }> };
  const rows: Row[] = [];
  for (const z of Object.values(codes)) {
    if (z.country !== undefined && z.country !== 'US') continue;
    rows.push([z.zip, z.city, z.state, Number(z.latitude), Number(z.longitude)]);
  }
  return { source: packageVersion(), rows };
}

/** Writes the file atomically; a failure (read-only install or home) is not an error. */
export function writeUsZipFile(file: string, data: UsZipFile = buildUsZipFile()): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(tmp, JSON.stringify(data));
    fs.renameSync(tmp, file);
  } catch {
    fs.rmSync(tmp, { force: true });
  }
}

function fromRows(rows: Row[]): UsZip[] {
  return rows.map(([zip, city, state, latitude, longitude]) => ({ zip, city, state, latitude, longitude }));
}

function readFile(file: string): UsZipFile | null {
  try {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as UsZipFile;
    return Array.isArray(parsed?.rows) && typeof parsed.source === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

/** The installed zipcodes version, or "shipped" when only dist/data has the rows. */
function packageVersion(): string {
  try {
    return (require('zipcodes/package.json') as { version: string }).version;
  } catch {
    return 'shipped';
  }
}
