// The postal tables beyond US ZIPs: how written codes are keyed per country, and the per-user cache (read when
// built from the same source packages, rebuilt when they differ).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPostalCodes, PostalCodes } from '../../src/geo/place/postal-codes.js';
import { postalSourceVersions } from '../../src/geo/place/postal-sources.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'postal-codes-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('PostalCodes.lookup', () => {
  const table = new PostalCodes({
    CA: { M5V: ['Toronto', 'Ontario', 43.65, -79.37] },
    AU: { '2000': ['Sydney', 'NSW', -33.86, 151.2] },
    NO: { '2000': ['Lillestrøm', null, null, null] },
    DE: { '80331': ['München', 'Bayern', null, null] },
  });

  it('keys a full Canadian code by its forward sortation area, in any case and spacing', () => {
    for (const written of ['M5V 3L9', 'm5v3l9', 'M5V']) expect(table.lookup(written, null).map((c) => `${c.country}:${c.code}`)).toEqual(['CA:M5V']);
    expect(table.lookup('M5V 3L9', null)[0]).toMatchObject({ district: true, point: { lat: 43.65, lng: -79.37 } });
  });

  it('finds a code in every country whose table has it, or in the one named', () => {
    expect(table.lookup('2000', null).map((c) => c.country)).toEqual(['AU', 'NO']);
    expect(table.lookup('2000', 'NO')).toMatchObject([{ names: ['Lillestrøm'], point: null, district: false }]);
    expect(table.lookup('2000', 'DE')).toEqual([]);
  });

  it('only takes a code of the country’s form, and no inherited key', () => {
    expect(table.lookup('8033', 'DE')).toEqual([]);
    expect(table.lookup('__proto__', null)).toEqual([]);
    expect(table.lookup('constructor', 'DE')).toEqual([]);
  });
});

describe('PostalCodes.neighbourRuns', () => {
  const table = new PostalCodes({
    DE: {
      '76131': ['Karlsruhe', 'Baden-Württemberg', null, null],
      '76133': ['Karlsruhe', 'Baden-Württemberg', null, null],
      '76185': ['Karlsruhe', 'Baden-Württemberg', null, null],
      '76646': ['Bruchsal', 'Baden-Württemberg', null, null],
      '77652': ['Offenburg', 'Baden-Württemberg', null, null],
    },
    CA: { M5V: ['Toronto', 'Ontario', 43.65, -79.37] },
  });
  const runs = (code: string, country: string) => [...table.neighbourRuns(code, country)].map((r) => `${r.prefix}:${r.codes.map((c) => c.code).join(',')}`);

  it('gives the codes sharing the longest leading digits first, nearest first, down to the country’s shortest run', () => {
    // 76089 is a firm's own code: no 760xx in the table, so the run of 76 is the nearest.
    expect(runs('76089', 'DE')).toEqual(['76:76131,76133,76185,76646']);
    expect(runs('76134', 'DE')).toEqual(['7613:76133,76131', '761:76133,76131,76185', '76:76133,76131,76185,76646']);
  });

  it('leaves the code itself out, and gives nothing where the country’s codes have no such order or no table', () => {
    expect(runs('76131', 'DE')[0]).toBe('7613:76133');
    expect(runs('M5V', 'CA')).toEqual([]);
    expect(runs('76131', 'AT')).toEqual([]);
    expect(runs('constructor', 'DE')).toEqual([]);
  });
});

describe('loadPostalCodes', () => {
  it('builds from the installed packages, writes the cache, and reads it back while the sources are the same', async () => {
    const file = path.join(dir, 'postal.json');
    const built = await loadPostalCodes({ cacheFile: file });
    expect(built.countries.sort()).toEqual(['AU', 'CA', 'DE', 'FI', 'FR', 'IN', 'MY', 'NO', 'TR']);
    expect(built.size).toBeGreaterThan(20_000);
    const cached = JSON.parse(fs.readFileSync(file, 'utf8')) as { sources: Record<string, string>; countries: Record<string, Record<string, unknown>> };
    expect(cached.sources).toEqual(postalSourceVersions());
    // A marker only the file has: found when the file is read instead of the packages.
    cached.countries['DE']!['99999'] = ['Markerstadt', null, 50, 10];
    fs.writeFileSync(file, JSON.stringify(cached));
    expect((await loadPostalCodes({ cacheFile: file })).lookup('99999', 'DE')[0]?.names).toEqual(['Markerstadt']);
  });

  it('rebuilds a cache made from other package versions', async () => {
    const file = path.join(dir, 'stale.json');
    const stale = { sources: { ...postalSourceVersions(), table: 'old' }, countries: { DE: { '99999': ['Markerstadt', null, 50, 10] } } };
    fs.writeFileSync(file, JSON.stringify(stale));
    const loaded = await loadPostalCodes({ cacheFile: file });
    expect(loaded.lookup('99999', 'DE')).toEqual([]);
    expect(loaded.lookup('80331', 'DE')[0]?.names).toContain('München');
  });
});
