// Photon (komoot) search API: GET {base}/api?q=…&limit=1, answering a GeoJSON FeatureCollection whose
// features carry `properties` with type (house, street, locality, district, city, county, state, country,
// other), name, housenumber, street, postcode, city, state, country, countrycode, osm_key/osm_value.
import type { Precision } from '../confidence.js';
import { coordinate, isObject, str, toPlaceResult, type RemoteAdapter } from './remote-adapter.js';

const TYPE_PRECISION: Record<string, Precision> = {
  house: 'address',
  street: 'street',
  locality: 'locality',
  district: 'locality',
  city: 'locality',
  county: 'region',
  state: 'region',
  country: 'country',
};

export const photonAdapter: RemoteAdapter = {
  kind: 'photon',
  searchUrl(base, query) {
    const url = new URL(`${base.pathname.replace(/\/+$/, '')}/api`, base);
    url.search = new URLSearchParams({ q: query, limit: '1' }).toString();
    return url;
  },
  read(body, query) {
    if (!isObject(body) || !Array.isArray(body.features)) throw new Error('Photon answered something other than a GeoJSON FeatureCollection');
    const feature: unknown = body.features[0];
    if (feature === undefined) return null;
    if (!isObject(feature) || !isObject(feature.geometry) || !Array.isArray(feature.geometry.coordinates)) {
      throw new Error('Photon answered a feature without a point');
    }
    const p = isObject(feature.properties) ? feature.properties : {};
    const [lng, lat] = feature.geometry.coordinates as unknown[];
    const type = str(p.type) ?? '';
    const precision: Precision = str(p.osm_value) === 'postcode' ? 'postal_code' : (TYPE_PRECISION[type] ?? 'locality');
    const name = str(p.name);
    const city = str(p.city) ?? (precision === 'locality' ? name : null);
    const street = str(p.street) ?? (precision === 'street' ? name : null);
    const houseNumber = str(p.housenumber);
    const postcode = str(p.postcode);
    const streetLine = [houseNumber, street].filter(Boolean).join(' ');
    const cityLine = [postcode, city].filter(Boolean).join(' ');
    const state = str(p.state);
    // A city-state (Berlin, Hamburg) names its state like itself: say it once.
    const formatted = [
      name && name !== street && name !== city ? name : null,
      streetLine || null,
      cityLine || null,
      state !== city ? state : null,
      str(p.country),
    ]
      .filter((x, i, all) => x && all.indexOf(x) === i)
      .join(', ');
    return toPlaceResult(
      'photon',
      {
        lat: coordinate(lat, 90),
        lng: coordinate(lng, 180),
        precision,
        score: null,
        formatted,
        components: {
          house_number: houseNumber,
          street,
          city,
          state,
          state_code: null,
          country: str(p.country),
          country_code: str(p.countrycode)?.toUpperCase() ?? null,
          postal_code: postcode,
        },
        attribution: 'Data © OpenStreetMap contributors, ODbL 1.0 (https://osm.org/copyright), via Photon',
      },
      query,
    );
  },
};
