// US ZIP centroids (from the `zipcodes` package, through the geo domain's table of it) and great-circle
// distances. A few hundred US entries sit at 0,0 (military codes, no known location): they are skipped.
import { InvalidInput } from '../errors.js';
import { usZips } from '../geo/place/us-zips.js';

export interface ZipCentroid {
  zip: string;
  lat: number;
  lng: number;
  city: string;
  state: string;
}

let centroids: Map<string, ZipCentroid> | undefined;

function loadCentroids(): Map<string, ZipCentroid> {
  if (!centroids) {
    centroids = new Map();
    // The geo domain's table of the same package: JSON shipped or cached, not the package's slow object literal.
    for (const e of usZips()) {
      if (!/^\d{5}$/.test(e.zip)) continue;
      const lat = Number(e.latitude);
      const lng = Number(e.longitude);
      if (!Number.isFinite(lat) || !Number.isFinite(lng) || (lat === 0 && lng === 0)) continue;
      centroids.set(e.zip, { zip: e.zip, lat, lng, city: e.city, state: e.state });
    }
  }
  return centroids;
}

export const ZIP_PATTERN = /^\d{5}$/;

/** The centroid of a five-digit US ZIP, or undefined when unknown (or known only at 0,0). */
export function zipCentroid(zip: string): ZipCentroid | undefined {
  return loadCentroids().get(zip);
}

/** Like zipCentroid, but a malformed or unknown ZIP is a 400 naming `field`. */
export function requireZip(zip: string, field = 'zip'): ZipCentroid {
  if (!ZIP_PATTERN.test(zip)) throw new InvalidInput(`${field}: must be exactly five digits (a US ZIP code).`, field);
  const c = zipCentroid(zip);
  if (!c) throw new InvalidInput(`${field}: ZIP code ${zip} is not a US ZIP code with a known location.`, field, 'UNKNOWN_ZIP');
  return c;
}

const EARTH_RADIUS_MILES = 3958.7613;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in miles (haversine). */
export function haversineMiles(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = rad(lat2 - lat1);
  const dLng = rad(lng2 - lng1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(a)));
}

export interface BoundingBox {
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
}

/**
 * A box that contains every point within `miles` of the centre: the prefilter an index can answer.
 * Slightly generous (1%) so rounding never drops a point the exact haversine test would keep.
 */
export function boundingBox(lat: number, lng: number, miles: number): BoundingBox {
  const dLat = ((miles * 1.01) / EARTH_RADIUS_MILES) * (180 / Math.PI);
  const cosLat = Math.cos(rad(Math.min(89.9, Math.abs(lat) + dLat)));
  const dLng = Math.min(180, dLat / Math.max(cosLat, 1e-6));
  return { minLat: lat - dLat, maxLat: lat + dLat, minLng: lng - dLng, maxLng: lng + dLng };
}
