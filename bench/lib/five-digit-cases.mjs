// Five-digit postal codes of every country whose GeoNames postal list is mostly five digits (issue 33: "German
// and other 5-digit codes given alone: no match or a US ZIP"), from GeoNames' postal code dumps (CC BY 4.0,
// geonames.org) as converted to CSV by zauberware/postal-codes-json-xml-csv. Which countries is read from the
// data (no list of ours); a few codes per country, evenly spaced in the list, in three shapes:
//   - the code alone: right when its country is answered or offered in `alternatives` (several countries use
//     the same digits: the answer cannot know which was meant, but must not hide the others);
//   - "<code> <place>" and "<place> <code>": right in the code's country within 25 km of GeoNames' point.
import { execFileSync } from 'node:child_process';
import JSZip from 'jszip';

/** Codes per country: enough to see each country, few enough that the big lists do not outweigh the rest. */
const PER_COUNTRY = 12;
/** A country counts as a five-digit one when this share of its codes has that form. */
const FIVE_DIGIT_SHARE = 0.9;

/** One line of a CSV file whose fields may be quoted. */
function csvFields(line) {
  return [...line.matchAll(/(?:^|,)(?:"([^"]*)"|([^,]*))/g)].map((m) => m[1] ?? m[2]);
}

/** The rows of one country's file, one per code (its first place), or null when the mirror lacks the file. */
export async function rowsOf(dir, file) {
  let zip;
  try {
    zip = execFileSync('git', ['--git-dir', dir, 'show', `HEAD:${file}`], { maxBuffer: 64 * 2 ** 20, stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return null; // a mirror may list a large file without holding it
  }
  const archive = await JSZip.loadAsync(zip).catch(() => null);
  const csvName = archive && Object.keys(archive.files).find((n) => n.endsWith('.csv'));
  if (!csvName) return [];
  const lines = (await archive.file(csvName).async('string')).split('\n');
  const header = csvFields(lines[0].trim());
  const at = (name) => header.indexOf(name);
  const [cc, code, place, lat, lng] = ['country_code', 'zipcode', 'place', 'latitude', 'longitude'].map(at);
  const byCode = new Map();
  for (const line of lines.slice(1)) {
    const f = csvFields(line.trim());
    if (!f[code] || byCode.has(f[code])) continue;
    byCode.set(f[code], { country: f[cc], code: f[code], place: f[place], lat: Number(f[lat]), lng: Number(f[lng]) });
  }
  return [...byCode.values()];
}

/** The cases, each `{category, query, country, lat, lng, code}`, and the data files the mirror lacks. */
export async function fiveDigitCases(dir) {
  const files = execFileSync('git', ['--git-dir', dir, 'ls-tree', '--name-only', 'HEAD', 'data/'], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => /\/[A-Z]{2}\.zip$/.test(f));
  const cases = [];
  const missing = [];
  for (const file of files) {
    const rows = await rowsOf(dir, file);
    if (rows === null) {
      missing.push(file);
      continue;
    }
    const five = rows.filter((r) => /^\d{5}$/.test(r.code) && r.place && Number.isFinite(r.lat) && Number.isFinite(r.lng));
    if (rows.length === 0 || five.length < FIVE_DIGIT_SHARE * rows.length) continue;
    const stride = Math.max(1, Math.floor(five.length / PER_COUNTRY));
    for (const row of five.filter((_, i) => i % stride === 0).slice(0, PER_COUNTRY)) {
      const point = { country: row.country, lat: row.lat, lng: row.lng, place: row.place, code: row.code };
      cases.push({ ...point, category: 'five-digit code alone (its country answered or offered)', query: row.code, judge: 'codeOffered' });
      cases.push({ ...point, category: 'five-digit code with its town', query: `${row.code} ${row.place}`, judge: 'codeTown' });
      cases.push({ ...point, category: 'five-digit code with its town', query: `${row.place} ${row.code}`, judge: 'codeTown' });
    }
  }
  return { cases, missing };
}

/**
 * Whether a point stands for the case: in its country (or a US territory's code answered as the US ZIP it also
 * is: GeoNames files Puerto Rico apart, the ZIP data under the US) and within `km` of GeoNames' point.
 */
function atCase(c, p, km, distanceKm) {
  const country = p.country_code === c.country || (p.country_code === 'US' && p.postal_code === c.code);
  return country && distanceKm(p, c) <= km;
}

/** The judge of these cases: the code with its town at the code's place; the code alone there or offered there. */
export function judgedFiveDigit(c, r, distanceKm, km) {
  if (r === null) return false;
  const answer = { ...r, country_code: r.components.country_code, postal_code: r.components.postal_code };
  if (c.judge === 'codeTown') return atCase(c, answer, km, distanceKm);
  // Alone: the code's country answered, or offered among the alternatives (anywhere in it: which of its
  // places the code is, is known only from that country's table).
  return answer.country_code === c.country || atCase(c, answer, km, distanceKm) || (r.alternatives ?? []).some((a) => a.country_code === c.country);
}
