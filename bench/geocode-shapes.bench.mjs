// geo.locate on query shapes beyond "town, region, country" (issue 33), assembled at bench time from public
// sources independent of the embedded data, and scored as bench/geocode-quality.bench.mjs scores (same judge):
//   - a country's ISO code after the town, in lower case: Natural Earth 1:110m populated places (public domain;
//     the copy in ya3ya6/ponisha_globe): "<name> <adm0_a3>" and "<name> <iso_a2>", judged within 25 km;
//   - a county between the town and the state: kelvins/US-Cities-Database (MIT; US places with their county
//     and point), every 150th place as "<city>, <county> County, <state>" ("Parish" in Louisiana; Alaska's
//     census areas and counties named "… City" left out), judged within 25 km;
//   - a county alone with its state, from the same file: every 8th county (by state and name) as
//     "<county> County, <state>" and "<county> County, <ST>", judged in the US, in that state, and within the
//     county's extent (the farthest of its listed places from their median point, at least 25 km) of that point;
//   - a town's district or borough beside it: the labelled test addresses of libpostal (test/test_parser.c,
//     MIT) that carry a suburb or city district, as "<district>, <city>" and "<district> <city>", judged by
//     the city name (or one of the answered place's GeoNames names);
//   - postal codes alone, outside the US: libpostal's labelled postcodes of addresses whose country is
//     labelled, judged by the country (its name read with Nominatim's country names, settings/country-names);
//   - from OpenCage's address-formatting test cases (MIT; OpenStreetMap-tagged addresses of every country, see
//     lib/address-formatting-cases.mjs): more districts beside their towns, street addresses whose locality is
//     a district ("<number> <street>, <district>, <city>" and "<number> <street>, <district> <state>"), judged
//     by the city or the district name in the right country; postal codes alone, by the country; and
//     second-level regions with their country ("Upper Bavaria, Germany"), right when answered in that country
//     below country level and, where the case's first-level region is known to the region data, in it;
//   - five-digit postal codes of every country whose GeoNames postal list is mostly five digits (GeoNames postal
//     codes, CC BY 4.0, as zauberware/postal-codes-json-xml-csv converts them; see lib/five-digit-cases.mjs): the
//     code alone, right when its country is answered or offered among the alternatives, and the code before and
//     after its town, right at the code's place; and from the same dumps the UK's outward codes (postal
//     districts, GeoNames' UK list; lib/uk-outward-cases.mjs), one in ten, alone, right in the UK within 25 km
//     of the district's point.
// Every query is put in one of two halves by a hash of its text: "tuning" (looked at while changing the
// reader; GEOCODE_SHAPES_WRONG=1 prints its misses) and "held out" (only its score is printed).
// Nothing is sent over the network; a missing source skips its categories, saying so.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { geocodeEmbedded } from '../dist/src/geo/place/embedded-geocoder.js';
import { distanceKm, Gazetteer } from '../dist/src/geo/place/gazetteer.js';
import { normaliseName } from '../dist/src/geo/shared/text.js';
import { cString, geonamesReference, gitDir, gitShow, judge } from './geocode-quality.bench.mjs';
import { addressFormattingCases, addressFormattingQueries } from './lib/address-formatting-cases.mjs';
import { fiveDigitCases, judgedFiveDigit } from './lib/five-digit-cases.mjs';
import { ukOutwardCases } from './lib/uk-outward-cases.mjs';
import { halvesTable, halvesTally } from './lib/query-half.mjs';

const SOURCES = {
  naturalEarth: { env: 'NATURAL_EARTH_GIT', repo: 'ya3ya6/ponisha_globe', note: 'a copy of Natural Earth 1:110m populated places' },
  usCities: { env: 'US_CITIES_GIT', repo: 'kelvins/US-Cities-Database' },
  libpostal: { env: 'LIBPOSTAL_GIT', repo: 'openvenues/libpostal' },
  nominatim: { env: 'NOMINATIM_GIT', repo: 'osm-search/Nominatim', note: 'country names, to read libpostal’s country labels' },
  addressFormatting: { env: 'ADDRESS_FORMATTING_GIT', repo: 'OpenCageData/address-formatting', note: 'OpenCage’s address test cases, MIT' },
  postalCodes: { env: 'GEONAMES_POSTAL_GIT', repo: 'zauberware/postal-codes-json-xml-csv', note: 'GeoNames postal codes, CC BY 4.0' },
};
/** Five-digit codes with their town: right within this distance of GeoNames' point for the code. */
const CODE_KM = 25;
const COUNTY_STRIDE = 150;
const COUNTY_ALONE_STRIDE = 8;
/** A county's extent is at least this (km): a county of one listed place is still an area. */
const CITY_KM_FLOOR = 25;

function countryCodeCases(dir) {
  const cases = [];
  for (const f of JSON.parse(gitShow(dir, 'ne_110m_populated_places_simple.geojson')).features) {
    const p = f.properties;
    if (!p.iso_a2 || p.iso_a2 === '-99') continue;
    const point = { country: p.iso_a2.toUpperCase(), lat: f.geometry.coordinates[1], lng: f.geometry.coordinates[0], judge: 'city' };
    const category = 'country code after the town';
    if (p.adm0_a3 && p.adm0_a3 !== '-99') cases.push({ category, query: `${p.name} ${p.adm0_a3.toLowerCase()}`, ...point });
    cases.push({ category, query: `${p.name} ${p.iso_a2.toLowerCase()}`, ...point });
  }
  return cases;
}

/** One line of a CSV file whose fields may be quoted. */
function csvFields(line) {
  return [...line.matchAll(/(?:^|,)(?:"([^"]*)"|([^,]*))/g)].map((m) => m[1] ?? m[2]);
}

/** "<county> County, <state>" and "<county> County, <ST>" for every COUNTY_ALONE_STRIDE-th county of the file. */
function countyAloneCases(dir) {
  const lines = gitShow(dir, 'csv/us_cities.csv').split('\n').slice(1).filter(Boolean);
  const counties = new Map();
  for (const line of lines) {
    const [, stateCode, stateName, , county, lat, lng] = csvFields(line);
    if (!county || stateCode === 'AK' || /\bcity\b/i.test(county)) continue;
    const key = `${stateCode}|${county}`;
    let c = counties.get(key);
    if (!c) counties.set(key, (c = { stateCode, stateName, county, points: [] }));
    c.points.push({ lat: Number(lat), lng: Number(lng) });
  }
  const median = (v) => {
    const s = [...v].sort((a, b) => a - b);
    return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const cases = [];
  const keys = [...counties.keys()].sort();
  for (let i = 0; i < keys.length; i += COUNTY_ALONE_STRIDE) {
    const c = counties.get(keys[i]);
    const at = { lat: median(c.points.map((p) => p.lat)), lng: median(c.points.map((p) => p.lng)) };
    const km = Math.max(CITY_KM_FLOOR, ...c.points.map((p) => distanceKm(p, at)));
    const kind = c.stateCode === 'LA' ? 'Parish' : 'County';
    for (const state of [c.stateName, c.stateCode]) {
      cases.push({
        category: 'county with its state',
        query: `${c.county} ${kind}, ${state}`,
        country: 'US',
        state: c.stateName,
        ...at,
        km,
        judge: 'inCounty',
      });
    }
  }
  return cases;
}

function countyCases(dir) {
  const lines = gitShow(dir, 'csv/us_cities.csv').split('\n').slice(1).filter(Boolean);
  const cases = [];
  for (let i = 0; i < lines.length; i += COUNTY_STRIDE) {
    const [, stateCode, stateName, city, county, lat, lng] = csvFields(lines[i]);
    if (stateCode === 'AK' || /\bcity\b/i.test(county)) continue;
    const kind = stateCode === 'LA' ? 'Parish' : 'County';
    cases.push({
      category: 'county between town and state',
      query: `${city}, ${county} ${kind}, ${stateName}`,
      country: 'US',
      lat: Number(lat),
      lng: Number(lng),
      judge: 'city',
    });
  }
  return cases;
}

function libpostalLabelled(dir) {
  const text = gitShow(dir, 'test/test_parser.c');
  const out = [];
  for (const m of text.matchAll(/test_parse_result_equals\(\s*"((?:[^"\\]|\\.)*)",\s*options,\s*\d+,([\s\S]*?)\)\);/g)) {
    out.push(Object.fromEntries([...m[2].matchAll(/\{"(\w+)", "((?:[^"\\]|\\.)*)"\}/g)].map((l) => [l[1], cString(l[2])])));
  }
  return out;
}

function districtCases(dir) {
  const cases = [];
  for (const labels of libpostalLabelled(dir)) {
    const district = labels.suburb ?? labels.city_district;
    if (!district || !labels.city) continue;
    const category = 'district beside its town';
    cases.push({ category, query: `${district}, ${labels.city}`, city: labels.city, judge: 'cityName' });
    cases.push({ category, query: `${district} ${labels.city}`, city: labels.city, judge: 'cityName' });
  }
  return cases;
}

/** Every name of every country in Nominatim's country-names files, folded, → ISO code. */
function countryNames(dir) {
  const files = execFileSync('git', ['--git-dir', dir, 'ls-tree', '--name-only', 'HEAD', 'settings/country-names/'], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  const names = new Map();
  for (const file of files) {
    const code = file.match(/([a-z]{2})\.yaml$/)?.[1]?.toUpperCase();
    if (!code) continue;
    names.set(code.toLowerCase(), code);
    for (const m of gitShow(dir, file).matchAll(/^\s+[\w:-]+: (.+)$/gm)) for (const n of m[1].split(' / ')) names.set(n.trim().toLowerCase(), code);
  }
  return names;
}

function postcodeCases(dir, names) {
  const cases = [];
  const seen = new Set();
  for (const labels of libpostalLabelled(dir)) {
    const country = labels.country ? names.get(labels.country.trim().toLowerCase()) : undefined;
    if (!labels.postcode || !country || country === 'US' || seen.has(labels.postcode)) continue;
    seen.add(labels.postcode);
    cases.push({ category: 'postal code alone, outside the US', query: labels.postcode.toUpperCase(), country, judge: 'countryOnly' });
  }
  return cases;
}

function judged(c, r, ref) {
  if (r === null) return false;
  switch (c.judge) {
    case 'codeOffered':
    case 'codeTown':
      return judgedFiveDigit(c, r, distanceKm, CODE_KM);
    case 'countryOnly':
      return (c.countries ?? [c.country]).includes(r.components.country_code);
    case 'cityOrDistrict':
      // The district itself is as good an answer as its town ("Kreuzberg" for "…, Kreuzberg, Berlin").
      return (
        r.components.country_code === c.country &&
        (judge({ ...c, judge: 'cityName' }, r, ref).right || judge({ ...c, city: c.district, judge: 'cityName' }, r, ref).right)
      );
    case 'inCounty':
      // In the county's state and within its extent: the state's own point is no answer for its county.
      return (
        r.components.country_code === 'US' &&
        normaliseName(r.components.state ?? '') === normaliseName(c.state) &&
        r.precision !== 'country' &&
        distanceKm(r, c) <= c.km
      );
    case 'inRegion': {
      if (r.components.country_code !== c.country || r.precision === 'country') return false;
      // The case names its first-level region in its own way; only one the region data knows by that name is checked.
      const want = c.state ? ref.region(c.state, c.country) : null;
      return want === null || ref.region(r.components.state ?? '', c.country)?.admin1 === want.admin1;
    }
    default:
      return judge(c, r, ref).right;
  }
}

/** Whole words of one name found in a row in the other ("nottingham" in "city of nottingham"). */
const wordsWithin = (a, b) => a !== '' && b !== '' && (` ${b} `.includes(` ${a} `) || ` ${a} `.includes(` ${b} `));

/**
 * The fairer judge of the district categories (issue 33): the sources label a town by its administrative
 * name ("City of Nottingham", "Commune de Port-au-Prince", "Autonomous City of Buenos Aires") and carry no
 * coordinates, so a town answer is also right when its name's words stand in a row in the label's (or the
 * label's in its), provided it is a town answer in the case's country where the case has one. Every other
 * category is judged as before.
 */
function judgedNew(c, r, ref) {
  if (judged(c, r, ref)) return true;
  if (r === null || (c.judge !== 'cityName' && c.judge !== 'cityOrDistrict')) return false;
  if (r.precision !== 'locality' && r.precision !== 'postal_code') return false;
  if (c.country && r.components.country_code !== c.country) return false;
  const got = normaliseName(r.components.city ?? '');
  return [c.city, c.district].filter(Boolean).some((want) => wordsWithin(got, normaliseName(want)));
}

export default {
  name: 'geocode-shapes',
  title: 'geo.locate on query shapes beyond town, region, country (tuning and held-out halves)',
  async run() {
    const cases = [];
    const used = [];
    const skipped = [];
    const dirs = Object.fromEntries(Object.entries(SOURCES).map(([k, s]) => [k, gitDir(s)]));
    const builders = [
      ['naturalEarth', () => countryCodeCases(dirs.naturalEarth)],
      ['usCities', () => [...countyCases(dirs.usCities), ...countyAloneCases(dirs.usCities)]],
      ['libpostal', () => [...districtCases(dirs.libpostal), ...(dirs.nominatim ? postcodeCases(dirs.libpostal, countryNames(dirs.nominatim)) : [])]],
      ['addressFormatting', () => addressFormattingQueries(addressFormattingCases(dirs.addressFormatting))],
      ['postalCodes', async () => [...(missingFiles = await fiveDigitCases(dirs.postalCodes)).cases, ...(await ukOutwardCases(dirs.postalCodes))]],
    ];
    let missingFiles = { missing: [] };
    // A query written the same by two sources (a postcode, a district and its town) is asked once.
    const asked = new Set();
    for (const [key, build] of builders) {
      const source = SOURCES[key];
      if (!dirs[key]) {
        skipped.push(`${source.repo} (set ${source.env} to a git directory of it)`);
        continue;
      }
      // (Only the later source's repeats are dropped, so the earlier sources' counts stay comparable across runs.)
      const raw = await build();
      const built = key === 'addressFormatting' || key === 'postalCodes' ? raw.filter((c) => !asked.has(c.query) && asked.add(c.query)) : raw;
      for (const c of raw) asked.add(c.query);
      cases.push(...built);
      const rev = execFileSync('git', ['--git-dir', dirs[key], 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
      const absent = key === 'postalCodes' && missingFiles.missing.length > 0 ? `, ${missingFiles.missing.length} country files absent from the mirror` : '';
      used.push(`${source.repo}${source.note ? ` (${source.note})` : ''} @ ${rev}: ${built.length} queries${absent}`);
    }
    if (cases.length === 0) return `Skipped: no source found (${skipped.join('; ')}).`;

    const gazetteer = await Gazetteer.load();
    const ref = await geonamesReference();
    const tally = halvesTally();
    const oldTally = halvesTally();
    const wrong = [];
    for (const c of cases) {
      const r = geocodeEmbedded(gazetteer, c.query);
      const right = judgedNew(c, r, ref);
      oldTally.count(c.category, c.query, judged(c, r, ref), r?.confidence ?? 0);
      const h = tally.count(c.category, c.query, right, r?.confidence ?? 0);
      if (!right && h === 'tuning') {
        const want = [c.countries?.join('|') ?? c.country, c.state, c.city, c.district].filter(Boolean).join(' / ');
        wrong.push(`${c.category}: "${c.query}" [want ${want}] → ${r ? `${r.formatted_address} (${r.precision}, ${r.confidence})` : 'no match'}`);
      }
    }
    if (process.env.GEOCODE_SHAPES_WRONG) process.stderr.write(`${wrong.join('\n')}\n`);
    // Throughput on these shapes (every query read several ways): best of 3 passes, one event loop.
    let best = 0;
    for (let pass = 0; pass < 3; pass++) {
      const start = process.hrtime.bigint();
      for (const c of cases) geocodeEmbedded(gazetteer, c.query);
      best = Math.max(best, cases.length / (Number(process.hrtime.bigint() - start) / 1e9));
    }
    const load = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(', ');
    return [
      `${cases.length} queries from: ${used.join('; ')}.${skipped.length ? ` Skipped: ${skipped.join('; ')}.` : ''}`,
      '',
      ...halvesTable(tally.table, tally.high),
      '',
      'The same answers under the earlier judge (labels compared by name only, before issue 33’s judge change):',
      '',
      ...halvesTable(oldTally.table, oldTally.high),
      '',
      `geocodeEmbedded throughput on these ${cases.length} queries: ${Math.round(best).toLocaleString('en-US')} queries/s (best of 3 passes, one event loop; load average ${load} on ${os.cpus().length} CPUs).`,
      '',
      'Judged as in geocode-quality (cities within 25 km and in the right country; district queries by the city name or one of the answered place’s GeoNames names, and for OpenCage’s cases also by the district’s name, in the right country; in the first table also right: a town answer whose name’s words stand in a row in the label’s or the label’s in its, in the case’s country where it has one, as “Nottingham” for “City of Nottingham” — the cases carry no coordinates, so no distance can be judged); postal codes alone by the country only (a US territory’s code may be answered as the US); second-level regions by their country, below country level, and by their first-level region where the region data knows the case’s name for it; a US county with its state in that state and within the county’s extent (the farthest of its listed places from their median point, at least 25 km); five-digit codes beside their town within 25 km of GeoNames’ point in the code’s country (a US territory’s code may be answered as the US ZIP it is), alone by the code’s country answered or offered in the alternatives; UK postal districts alone in the UK within 25 km of GeoNames’ point for the district. Halves by FNV-1a of the query text; only the tuning half’s misses were looked at.',
    ].join('\n');
  },
};
