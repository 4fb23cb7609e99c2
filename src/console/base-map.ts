// The offline base map behind the console's geo plots: country outlines and coastlines from Natural Earth
// (public domain) as the world-atlas package (ISC) ships them in TopoJSON, turned into one SVG path in the
// plot's own coordinates (x = longitude, y = −latitude) by topojson-client (ISC). `mesh` gives every shared
// border once. The 1:110m scale keeps the answer at about 100 kB; it is built on first request and kept.
// An install reads the one file from dist/data (scripts/pack-data.mjs; world-atlas, 8 MB, is then a
// development dependency), a checkout reads the package.
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { packageDir } from '../package-dir.js';

export interface BaseMap {
  /** SVG path data: one "M…L…" run per outline. */
  path: string;
  attribution: string;
}

const ATTRIBUTION = 'Country outlines: Natural Earth (public domain), via world-atlas (ISC)';

let built: Promise<BaseMap> | undefined;

export function baseMap(): Promise<BaseMap> {
  built ??= buildBaseMap();
  built.catch(() => (built = undefined));
  return built;
}

async function buildBaseMap(): Promise<BaseMap> {
  const require = createRequire(import.meta.url);
  const shipped = fileURLToPath(new URL('../../data/countries-110m.json', import.meta.url));
  const file = existsSync(shipped) ? shipped : path.join(packageDir('world-atlas'), 'countries-110m.json');
  const { mesh } = require('topojson-client') as TopojsonClient;
  const topology = JSON.parse(await fs.readFile(file, 'utf8')) as { objects: { countries: unknown } };
  const lines = mesh(topology, topology.objects.countries).coordinates;
  const d = lines.map((line) => `M${line.map(([lng, lat]) => `${round(lng)} ${round(-lat)}`).join('L')}`).join('');
  return { path: d, attribution: ATTRIBUTION };
}

function round(n: number): string {
  return (Math.round(n * 100) / 100).toString();
}

/** The one function used, typed here (the package ships no types). */
interface TopojsonClient {
  mesh(topology: unknown, object: unknown): { coordinates: [number, number][][] };
}
