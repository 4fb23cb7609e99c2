// The ASN index on a tiny fixture: CSV parsing, overlap resolution, binary search, the file format and
// the freshness check that triggers a rebuild.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeAsnIndex, type AsnIndex } from '../../src/geo/ip/asn-index.js';
import { buildAsnIndex, buildAsnIndexFromCsv, normaliseRanges, parseAsnCsvLine, type AsnRow } from '../../src/geo/ip/asn-index-builder.js';
import { dateFromPackageVersion, loadAsnIndex, type AsnIndexLocation } from '../../src/geo/ip/asn-index-store.js';
import { parseIp } from '../../src/geo/ip/ip-address.js';

const fixtures = path.resolve(import.meta.dirname, '../fixtures/geo');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'au-asn-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const source = { package: 'fixture', version: '1.0.2024010203', build_date: '2024-01-02' };
const location = (indexFile: string, version = source.version): AsnIndexLocation => ({
  v4Csv: path.join(fixtures, 'asn-ipv4-num.csv'),
  v6Csv: path.join(fixtures, 'asn-ipv6-num.csv'),
  source: { ...source, version },
  indexFile,
});

function lookup(index: AsnIndex, ip: string) {
  const p = parseIp(ip)!;
  const m = p.family === 4 ? index.lookupV4(p.v4) : index.lookupV6(p.v6);
  return m ? { asn: m.asn, org: m.organization } : null;
}

describe('CSV rows', () => {
  it('reads quoted organisations with commas and doubled quotes', () => {
    expect(parseAsnCsvLine('1,2,13335,"Cloudflare, Inc."')).toEqual({ start: 1n, end: 2n, asn: 13335, organization: 'Cloudflare, Inc.' });
    expect(parseAsnCsvLine('1,2,64500,"LLC ""SPUTNIK"""')?.organization).toBe('LLC "SPUTNIK"');
    expect(parseAsnCsvLine('1,2,64500,Plain Name')?.organization).toBe('Plain Name');
    expect(parseAsnCsvLine('1,2,64500,')?.organization).toBe('');
  });

  it('rejects rows that are not ranges', () => {
    expect(parseAsnCsvLine('a,b,c,d')).toBeNull();
    expect(parseAsnCsvLine('1,2')).toBeNull();
  });
});

describe('the fixture index', async () => {
  const index = decodeAsnIndex(await buildAsnIndexFromCsv(location(path.join(tmp, 'unused.bin'))));

  it('finds ranges at their first and last address (ends are inclusive)', () => {
    expect(lookup(index, '1.0.0.0')).toEqual({ asn: 13335, org: 'Cloudflare, Inc.' });
    expect(lookup(index, '1.0.1.255')).toEqual({ asn: 13335, org: 'Cloudflare, Inc.' });
    expect(lookup(index, '8.8.8.8')).toEqual({ asn: 15169, org: 'Google LLC' });
    expect(lookup(index, '255.255.255.255')).toEqual({ asn: 64503, org: 'Top Of Space' });
  });

  it('answers null in gaps, before the first and after the last range', () => {
    expect(lookup(index, '0.255.255.255')).toBeNull();
    expect(lookup(index, '1.0.2.0')).toBeNull();
    expect(lookup(index, '8.8.9.0')).toBeNull();
    expect(lookup(index, '2606:4701::1')).toBeNull();
    expect(lookup(index, '::2')).toBeNull();
  });

  it('merges touching ranges of one AS and lets a nested, narrower range win inside it', () => {
    expect(index.header.v4Count).toBe(7); // 7 rows: two merged into one, one split in two around a nested one
    expect(lookup(index, '178.208.65.99')?.asn).toBe(64500);
    expect(lookup(index, '178.208.65.100')?.asn).toBe(64501);
    expect(lookup(index, '178.208.65.149')?.asn).toBe(64501);
    expect(lookup(index, '178.208.65.150')).toEqual({ asn: 64500, org: 'Example "Quoted" Org' });
  });

  it('keeps a row without an organisation name as null', () => {
    expect(lookup(index, '178.208.66.0')).toEqual({ asn: 64502, org: null });
  });

  it('searches IPv6 ranges, nested ones included', () => {
    expect(lookup(index, '2001:4860:4860::8888')?.asn).toBe(64510);
    expect(lookup(index, '2001:4860:1::1')?.asn).toBe(15169);
    expect(lookup(index, '2001:4860:ffff:ffff:ffff:ffff:ffff:ffff')?.asn).toBe(15169);
    expect(lookup(index, '2606:4700:4700::1111')).toEqual({ asn: 13335, org: 'Cloudflare, Inc.' });
  });

  it('deduplicates organisation names into one table', () => {
    expect(index.header.orgCount).toBe(6);
    expect(index.header.source).toEqual(source);
  });
});

describe('overlap resolution', () => {
  // A naive oracle: at each address, the narrowest row containing it.
  function oracle(rows: AsnRow[], ip: bigint): number | null {
    let best: AsnRow | null = null;
    for (const r of rows) if (r.start <= ip && ip <= r.end && (!best || r.end - r.start < best.end - best.start)) best = r;
    return best?.asn ?? null;
  }

  it('agrees with the narrowest-range-wins rule on random overlapping rows', () => {
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 200; round++) {
      const rows: AsnRow[] = [];
      const widths = new Set<number>();
      for (let i = 0; i < 8; i++) {
        let width = 1 + rand(60);
        while (widths.has(width)) width++; // distinct widths: ties are settled arbitrarily by design
        widths.add(width);
        const start = rand(200);
        rows.push({ start: BigInt(start), end: BigInt(start + width), asn: 1000 + i, organization: `org${i}` });
      }
      const normalised = normaliseRanges(rows);
      for (let i = 1; i < normalised.length; i++) expect(normalised[i]!.start).toBeGreaterThan(normalised[i - 1]!.end);
      for (let ip = 0n; ip < 270n; ip++) {
        const hit = normalised.find((r) => r.start <= ip && ip <= r.end);
        expect(hit?.asn ?? null, `round ${round}, address ${ip}`).toBe(oracle(rows, ip));
      }
    }
  });
});

describe('the index file', () => {
  it('is built on first load, then read back; a new data version rebuilds it', async () => {
    const file = path.join(tmp, 'cache', 'asn.bin');
    const first = await loadAsnIndex(location(file));
    expect(first.origin).toBe('built');
    expect(fs.existsSync(file)).toBe(true);
    const second = await loadAsnIndex(location(file));
    expect(second.origin).toBe('file');
    expect(second.index.lookupV4(parseIp('8.8.8.8')!.v4)?.asn).toBe(15169);
    const upgraded = await loadAsnIndex(location(file, '1.0.2025010203'));
    expect(upgraded.origin).toBe('built');
    expect(upgraded.index.header.source.version).toBe('1.0.2025010203');
  });

  it('is rebuilt when corrupt, and still works in memory where it cannot be written', async () => {
    const file = path.join(tmp, 'corrupt.bin');
    fs.writeFileSync(file, 'not an index');
    expect((await loadAsnIndex(location(file))).origin).toBe('built');
    const blocked = path.join(tmp, 'a-file');
    fs.writeFileSync(blocked, '');
    const inMemory = await loadAsnIndex(location(path.join(blocked, 'under-a-file', 'asn.bin')));
    expect(inMemory.origin).toBe('built');
    expect(inMemory.index.lookupV4(parseIp('1.0.0.1')!.v4)?.asn).toBe(13335);
  });

  it('refuses a file with a wrong magic or a truncated body', () => {
    const good = buildAsnIndex([{ start: 1n, end: 2n, asn: 1, organization: 'x' }], [], source);
    expect(decodeAsnIndex(good).lookupV4(1)?.asn).toBe(1);
    expect(() => decodeAsnIndex(Buffer.from('XXXXXXXX\0\0\0\0'))).toThrow(/magic/);
    expect(() => decodeAsnIndex(good.subarray(0, good.length - 8))).toThrow(/truncated/);
  });

  it('takes the data date from the package version', () => {
    expect(dateFromPackageVersion('2.3.2026061719')).toBe('2026-06-17');
    expect(dateFromPackageVersion('1.0.0')).toBeNull();
  });
});
