// Pelias search API: GET {base}/v1/search?text=…&size=1, answering a GeoJSON FeatureCollection whose
// features carry `properties` with layer, confidence (0..1), housenumber, street, postalcode, locality,
// region, region_a, country, country_code (alpha-2; older servers only country_a, alpha-3) and label.
import { countryCodeFromName } from '../../shared/countries.js';
import { normaliseName } from '../../shared/text.js';
import type { Precision } from '../confidence.js';
import { coordinate, isObject, str, toPlaceResult, type RemoteAdapter } from './remote-adapter.js';

const LAYER_PRECISION: Record<string, Precision> = {
  address: 'address',
  venue: 'address',
  street: 'street',
  postalcode: 'postal_code',
  neighbourhood: 'locality',
  borough: 'locality',
  locality: 'locality',
  localadmin: 'locality',
  county: 'region',
  macrocounty: 'region',
  region: 'region',
  macroregion: 'region',
  dependency: 'country',
  country: 'country',
};

export const peliasAdapter: RemoteAdapter = {
  kind: 'pelias',
  searchUrl(base, query) {
    const url = new URL(`${base.pathname.replace(/\/+$/, '')}/v1/search`, base);
    url.search = new URLSearchParams({ text: query, size: '1' }).toString();
    return url;
  },
  read(body, query) {
    if (!isObject(body) || !Array.isArray(body.features)) throw new Error('Pelias answered something other than a GeoJSON FeatureCollection');
    const feature: unknown = body.features[0];
    if (feature === undefined) return null;
    if (!isObject(feature) || !isObject(feature.geometry) || !Array.isArray(feature.geometry.coordinates)) {
      throw new Error('Pelias answered a feature without a point');
    }
    const p = isObject(feature.properties) ? feature.properties : {};
    const [lng, lat] = feature.geometry.coordinates as unknown[];
    const country = str(p.country);
    const countryCode = str(p.country_code)?.toUpperCase() ?? (country ? countryCodeFromName(country, normaliseName) : null);
    const score = typeof p.confidence === 'number' && p.confidence >= 0 && p.confidence <= 1 ? p.confidence : null;
    const geocoding = isObject(body.geocoding) ? body.geocoding : {};
    return toPlaceResult(
      'pelias',
      {
        lat: coordinate(lat, 90),
        lng: coordinate(lng, 180),
        precision: LAYER_PRECISION[str(p.layer) ?? ''] ?? 'locality',
        score,
        formatted: str(p.label) ?? str(p.name) ?? '',
        components: {
          house_number: str(p.housenumber),
          street: str(p.street),
          city: str(p.locality) ?? str(p.localadmin) ?? str(p.borough),
          state: str(p.region),
          state_code: str(p.region_a),
          country,
          country_code: countryCode,
          postal_code: str(p.postalcode),
        },
        attribution: str(geocoding.attribution)
          ? `Pelias (${str(geocoding.attribution)})`
          : "Pelias; data from OpenStreetMap (ODbL), OpenAddresses, Who's on First and GeoNames",
      },
      query,
    );
  },
};
