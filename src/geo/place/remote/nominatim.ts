// Nominatim (OpenStreetMap) search API: GET {base}/search?q=…&format=jsonv2&addressdetails=1&limit=1, which
// answers a JSON array of places with string lat/lon, `addresstype`, `place_rank`, `display_name` and an
// `address` object (house_number, road, city/town/village, state, "ISO3166-2-lvl4", postcode, country,
// country_code).
import type { Precision } from '../confidence.js';
import { coordinate, isObject, str, toPlaceResult, type RemoteAdapter } from './remote-adapter.js';

const OSM_ATTRIBUTION = 'Data © OpenStreetMap contributors, ODbL 1.0 (https://osm.org/copyright), via Nominatim';

const LOCALITY_TYPES = ['city', 'town', 'village', 'hamlet', 'municipality', 'suburb', 'neighbourhood', 'quarter', 'city_district', 'borough', 'locality'];
const STREET_KEYS = ['road', 'pedestrian', 'footway', 'path', 'cycleway', 'square'];

export const nominatimAdapter: RemoteAdapter = {
  kind: 'nominatim',
  searchUrl(base, query) {
    const url = new URL(`${base.pathname.replace(/\/+$/, '')}/search`, base);
    url.search = new URLSearchParams({ q: query, format: 'jsonv2', addressdetails: '1', limit: '1' }).toString();
    return url;
  },
  read(body, query) {
    if (!Array.isArray(body)) throw new Error('Nominatim answered something other than a JSON array');
    const place: unknown = body[0];
    if (place === undefined) return null;
    if (!isObject(place)) throw new Error('Nominatim answered a place that is not an object');
    const address = isObject(place.address) ? place.address : {};
    const isoRegion = str(address['ISO3166-2-lvl4']);
    const countryCode = str(address.country_code)?.toUpperCase() ?? null;
    const precision = precisionOf(place, address);
    return toPlaceResult(
      'nominatim',
      {
        lat: coordinate(place.lat, 90),
        lng: coordinate(place.lon, 180),
        precision,
        score: null,
        formatted: str(place.display_name) ?? '',
        components: {
          house_number: str(address.house_number),
          street: firstOf(address, STREET_KEYS),
          city: firstOf(address, LOCALITY_TYPES),
          state: str(address.state) ?? str(address.province) ?? str(address.region),
          state_code: isoRegion && countryCode && isoRegion.startsWith(`${countryCode}-`) ? isoRegion.slice(countryCode.length + 1) : null,
          country: str(address.country),
          country_code: countryCode,
          postal_code: str(address.postcode),
        },
        attribution: str(place.licence) ? `${str(place.licence)}, via Nominatim` : OSM_ATTRIBUTION,
      },
      query,
    );
  },
};

function firstOf(address: Record<string, unknown>, keys: string[]): string | null {
  for (const k of keys) {
    const v = str(address[k]);
    if (v) return v;
  }
  return null;
}

/** From `addresstype` when it says, else from `place_rank` (30 building, 26–27 street, 4 country…). */
function precisionOf(place: Record<string, unknown>, address: Record<string, unknown>): Precision {
  const type = str(place.addresstype) ?? str(place.type) ?? '';
  if (type === 'postcode') return 'postal_code';
  if (type === 'country') return 'country';
  if (['state', 'province', 'region', 'county', 'state_district'].includes(type)) return 'region';
  if (LOCALITY_TYPES.includes(type)) return 'locality';
  if (['road', ...STREET_KEYS].includes(type)) return 'street';
  const rank = typeof place.place_rank === 'number' ? place.place_rank : Number(place.place_rank);
  if (rank >= 28) return str(address.house_number) ? 'address' : 'street';
  if (rank >= 26) return 'street';
  if (rank >= 13) return 'locality';
  if (rank >= 5) return 'region';
  return 'country';
}
