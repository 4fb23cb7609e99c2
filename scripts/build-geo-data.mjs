#!/usr/bin/env node
// Builds the compact ASN index ip.geolocate searches (sorted ranges + organisation string table) from the
// CSV files of @ip-location-db/asn, into node_modules/.cache/agent-utility/. Run after `npm run build`
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
