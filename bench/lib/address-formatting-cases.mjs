// geo.locate queries of issue 33's shapes from OpenCage's address-formatting test cases (MIT licence;
// testcases/countries/*.yaml: addresses of every country as OpenStreetMap tags them, with their suburb or city
// district, postcode and second-level region): what each case's components say is the truth, read with
// js-yaml's failsafe schema so that postcodes keep their leading zeros.
import { execFileSync } from 'node:child_process';
import yaml from 'js-yaml';

/** US territories whose postal codes are US ZIPs: answered as the US, rightly. */
const US_ZIP_TERRITORIES = new Set(['AS', 'GU', 'MP', 'PR', 'VI', 'UM']);

/** The test cases of every country file: their components, each a string. */
export function addressFormattingCases(dir) {
  const files = execFileSync('git', ['--git-dir', dir, 'ls-tree', '--name-only', 'HEAD', 'testcases/countries/'], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => f.endsWith('.yaml'));
  const out = [];
  for (const file of files) {
    const text = execFileSync('git', ['--git-dir', dir, 'show', `HEAD:${file}`], { encoding: 'utf8', maxBuffer: 16 * 2 ** 20 });
    for (const doc of yaml.loadAll(text, null, { schema: yaml.FAILSAFE_SCHEMA })) {
      if (doc && typeof doc === 'object' && doc.components && typeof doc.components === 'object') out.push(doc.components);
    }
  }
  return out;
}

const clean = (v) => (typeof v === 'string' && v.trim() !== '' && !/[,;]$/.test(v.trim()) ? v.trim() : null);

/**
 * The queries: a street address whose locality is its district ("<number> <street>, <district>, <city>" and,
 * the shape of "350 5th Ave, Manhattan NY", "<number> <street>, <district> <state>"), a district beside its
 * town ("<district>, <city>", "<district> <city>"), a postal code alone outside the US, and a second-level
 * region with its country ("Upper Bavaria, Germany"). Each carries what the judge needs.
 */
export function addressFormattingQueries(cases) {
  const queries = [];
  for (const k of cases) {
    const country = clean(k.country_code)?.toUpperCase();
    if (!country || country.length !== 2) continue;
    const city = clean(k.city) ?? clean(k.town) ?? clean(k.village);
    const district = clean(k.suburb) ?? clean(k.city_district) ?? clean(k.borough);
    const road = clean(k.road) ?? clean(k.pedestrian) ?? clean(k.footway);
    const number = clean(k.house_number) ?? clean(k.housenumber);
    const state = clean(k.state);
    const street = road ? (number ? `${number} ${road}` : road) : null;
    if (city && district && district !== city) {
      const judged = { country, city, district, judge: 'cityOrDistrict' };
      queries.push({ category: 'district beside its town', query: `${district}, ${city}`, ...judged });
      queries.push({ category: 'district beside its town', query: `${district} ${city}`, ...judged });
      if (street) {
        queries.push({ category: 'street address in a district', query: `${street}, ${district}, ${city}`, ...judged });
        if (state && state !== city) queries.push({ category: 'street address in a district', query: `${street}, ${district} ${state}`, ...judged });
      }
    }
    const postcode = clean(k.postcode);
    if (postcode && country !== 'US' && /\d/.test(postcode)) {
      const countries = US_ZIP_TERRITORIES.has(country) ? [country, 'US'] : [country];
      queries.push({ category: 'postal code alone, outside the US', query: postcode.toUpperCase(), countries, judge: 'countryOnly' });
    }
    const second = clean(k.state_district);
    const countryName = clean(k.country);
    if (second && countryName && second !== state && second !== city) {
      queries.push({ category: 'second-level region', query: `${second}, ${countryName}`, country, state, judge: 'inRegion' });
    }
  }
  return queries;
}
