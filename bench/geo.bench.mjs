// Location tools, in process: ip.geolocate lookups per second with all enrichment (ASN binary search,
// country name, region code, time zone, heuristics) against a bare `maxmind` reader lookup loop over the
// same addresses in the same run (goal: at least half its rate); geo.locate queries per second on the
// embedded gazetteer; and each data set's load time and resident memory, measured in a fresh process so
// other benchmarks' memory does not count. Local data only: no packet is sent to any address.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import maxmind from 'maxmind';
import ipGeolocate from '../dist/tools/ip.geolocate.js';
import geoLocate from '../dist/tools/geo.locate.js';
import { loadConfig } from '../dist/src/config.js';
import { createLogger } from '../dist/src/logger.js';
import { ServiceScope } from '../dist/src/registry/services.js';
import { ipGeolocationService } from '../dist/src/geo/ip/ip-geolocation-service.js';
import { defaultCityDatabaseFiles } from '../dist/src/geo/ip/city-database.js';
import { gazetteerService } from '../dist/src/geo/place/place-services.js';
import { geocodeEmbedded } from '../dist/src/geo/place/embedded-geocoder.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const IP_LOOKUPS = 200_000;
const ROUNDS = 3;
const PLACE_QUERIES = 20_000;

/** Deterministic public IPv4 addresses spread over the whole space (xorshift, fixed seed). */
function addresses(n) {
  let x = 2463534242;
  const out = [];
  while (out.length < n) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const v = x >>> 0;
    const a = v >>> 24;
    if (a === 0 || a === 10 || a === 127 || a >= 224) continue;
    out.push(`${a}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`);
  }
  return out;
}

const PLACES = [
  '94043',
  'Springfield, IL',
  'Paris, France',
  'Paris',
  '1600 Amphitheatre Parkway, Mountain View, CA 94043',
  'Berlin, Germany',
  'London SW1A 2AA, UK',
  'Toronto, ON',
  'Boston, MA 02108',
  'Tokyo',
  'Sydney NSW',
  'Austin TX',
  'California',
  'New York',
  'Friedrichstraße 43, 10117 Berlin, Germany',
  'Seattle, WA 98101',
  'Lyon',
  'Brazil',
];

/** Load time and RSS of one data set in a fresh Node process. */
function loadInFreshProcess(kind) {
  const script = `
    const { performance } = await import('node:perf_hooks');
    const { loadConfig } = await import('./dist/src/config.js');
    const { createLogger } = await import('./dist/src/logger.js');
    const { ServiceScope } = await import('./dist/src/registry/services.js');
    const svc = ${kind === 'ip' ? `(await import('./dist/src/geo/ip/ip-geolocation-service.js')).ipGeolocationService` : `(await import('./dist/src/geo/place/place-services.js')).gazetteerService`};
    const before = process.memoryUsage().rss;
    const scope = new ServiceScope(loadConfig({ LOG_LEVEL: 'silent' }), createLogger('silent'));
    const t0 = performance.now();
    const s = await scope.use(svc);
    ${kind === 'ip' ? `await s.geolocate('2001:4860:4860::8888');` : ''}
    const ms = performance.now() - t0;
    global.gc?.();
    process.stdout.write(JSON.stringify({ ms, rss: process.memoryUsage().rss, before }));
  `;
  const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  return JSON.parse(out);
}

function rate(count, ms) {
  return Math.round((count / ms) * 1000);
}

const fmt = (n) => n.toLocaleString('en-US');

export default {
  name: 'geo',
  title: 'Location tools: ip.geolocate and geo.locate on embedded data',
  async run() {
    const ipLoad = loadInFreshProcess('ip');
    const placeLoad = loadInFreshProcess('place');

    const config = loadConfig({ LOG_LEVEL: 'silent' });
    const scope = new ServiceScope(config, createLogger('silent'));
    const geolocator = await scope.use(ipGeolocationService);
    const raw = await maxmind.open(defaultCityDatabaseFiles(undefined).ipv4);
    const ips = addresses(IP_LOOKUPS);

    // Warm both paths (JIT, the reader's record cache) before measuring.
    for (const ip of ips.slice(0, 20_000)) {
      raw.get(ip);
      await geolocator.geolocate(ip);
    }

    const rawMs = [];
    const oursMs = [];
    const toolMs = [];
    const ctx = { signal: new AbortController().signal, use: (d) => scope.use(d) };
    for (let round = 0; round < ROUNDS; round++) {
      let t = performance.now();
      let found = 0;
      for (const ip of ips) if (raw.get(ip)) found++;
      rawMs.push(performance.now() - t);

      t = performance.now();
      for (const ip of ips) await geolocator.geolocate(ip);
      oursMs.push(performance.now() - t);

      t = performance.now();
      for (const ip of ips.slice(0, IP_LOOKUPS / 4)) await ipGeolocate.run(ctx, ipGeolocate.input.parse({ ip }));
      toolMs.push((performance.now() - t) * 4);
      if (found === 0) throw new Error('the raw reader found nothing: wrong database?');
    }
    const best = (xs) => Math.min(...xs);
    const rawRate = rate(IP_LOOKUPS, best(rawMs));
    const oursRate = rate(IP_LOOKUPS, best(oursMs));
    const toolRate = rate(IP_LOOKUPS, best(toolMs));

    const gazetteer = await scope.use(gazetteerService);
    for (const q of PLACES) geocodeEmbedded(gazetteer, q);
    const placeMs = [];
    const placeToolMs = [];
    for (let round = 0; round < ROUNDS; round++) {
      let t = performance.now();
      for (let i = 0; i < PLACE_QUERIES; i++) geocodeEmbedded(gazetteer, PLACES[i % PLACES.length]);
      placeMs.push(performance.now() - t);
      t = performance.now();
      for (let i = 0; i < PLACE_QUERIES / 4; i++) await geoLocate.run(ctx, geoLocate.input.parse({ address: PLACES[i % PLACES.length] }));
      placeToolMs.push((performance.now() - t) * 4);
    }
    await scope.close();

    const mb = (b) => `${Math.round(b / 1e6)} MB`;
    return [
      `${fmt(IP_LOOKUPS)} random public IPv4 addresses per round, best of ${ROUNDS} rounds, one event loop, sequential calls.`,
      '',
      '| ip.geolocate | lookups/s | vs raw reader |',
      '|---|---:|---:|',
      `| raw \`maxmind\` reader \`get()\` loop (baseline, no enrichment) | ${fmt(rawRate)} | 1.00 |`,
      `| IpGeolocator.geolocate (city + ASN + enrichment) | ${fmt(oursRate)} | ${(oursRate / rawRate).toFixed(2)} |`,
      `| tool run() incl. input schema parse | ${fmt(toolRate)} | ${(toolRate / rawRate).toFixed(2)} |`,
      '',
      `Goal: ≥ 0.50 of the raw reader → ${oursRate / rawRate >= 0.5 ? 'met' : 'NOT met'}.`,
      '',
      '| geo.locate (embedded gazetteer) | queries/s |',
      '|---|---:|',
      `| geocodeEmbedded, ${PLACES.length} mixed queries (ZIP, city, street address, region, international) | ${fmt(rate(PLACE_QUERIES, best(placeMs)))} |`,
      `| tool run() incl. input schema parse | ${fmt(rate(PLACE_QUERIES, best(placeToolMs)))} |`,
      '',
      '| data set (fresh process) | load time | RSS after load | RSS added |',
      '|---|---:|---:|---:|',
      `| IP: ASN index (prebuilt) + DB-IP City Lite IPv4 and IPv6 | ${Math.round(ipLoad.ms)} ms | ${mb(ipLoad.rss)} | ${mb(ipLoad.rss - ipLoad.before)} |`,
      `| Places: GeoNames 135k places + 42k US ZIPs, indexed | ${Math.round(placeLoad.ms)} ms | ${mb(placeLoad.rss)} | ${mb(placeLoad.rss - placeLoad.before)} |`,
    ].join('\n');
  },
};
