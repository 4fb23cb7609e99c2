// UK outward codes (postal districts: "SW1A", "M9", "BN91") given alone, from GeoNames' postal codes of the
// United Kingdom (CC BY 4.0, geonames.org; GeoNames publishes the UK's outward codes only) as converted to
// CSV by zauberware/postal-codes-json-xml-csv. Evenly spaced over the list, so every part of the country is
// asked; right in the UK within 25 km of GeoNames' point for the district (issue 33: "full UK postcodes …
// given alone: no match").
import { rowsOf } from './five-digit-cases.mjs';

/** Districts asked: about one in ten of the UK's ~3,000. */
const STRIDE = 10;

/** The cases, each `{category, query, country, lat, lng, code}`; none when the mirror lacks the file. */
export async function ukOutwardCases(dir) {
  const rows = (await rowsOf(dir, 'data/GB.zip')) ?? [];
  // GeoNames files Guernsey's, Jersey's and Man's districts (GY, JE, IM) with the UK's; they are their own
  // countries (ISO 3166), and answered so, so they are left out rather than judged as the UK.
  const districts = rows.filter(
    (r) => /^[A-Z]{1,2}\d[A-Z\d]?$/.test(r.code) && !/^(GY|JE|IM)\d/.test(r.code) && Number.isFinite(r.lat) && Number.isFinite(r.lng),
  );
  return districts
    .filter((_, i) => i % STRIDE === 0)
    .map((r) => ({ category: 'UK postal district alone', query: r.code, country: 'GB', lat: r.lat, lng: r.lng, code: r.code, judge: 'codeTown' }));
}
