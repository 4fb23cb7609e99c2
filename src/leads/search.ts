// Radius search over the directory: an indexed bounding-box prefilter in the store, then the exact
// haversine distance, then ranking. Ranking is by distance as shown (0.1 mile), then rating, then
// number of reviews, so two pros the user sees at the same distance are ordered by how well rated they are.
import type { Category } from './categories.js';
import { boundingBox, haversineMiles } from './geo.js';
import type { LeadStore } from './store.js';
import type { Pro, SearchResultEntry } from './types.js';

export const DEFAULT_RADIUS_MILES = 25;
export const MAX_RADIUS_MILES = 100;
export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

export interface SearchParams {
  category: Category;
  lat: number;
  lng: number;
  radiusMiles: number;
  limit: number;
}

export interface SearchOutcome {
  results: SearchResultEntry[];
  /** Pros inside the radius, before the limit. */
  total: number;
}

const roundTenth = (x: number) => Math.round(x * 10) / 10;

export function compareRanked(a: SearchResultEntry, b: SearchResultEntry): number {
  return (
    a.distance_miles - b.distance_miles ||
    (b.rating ?? -1) - (a.rating ?? -1) ||
    (b.review_count ?? -1) - (a.review_count ?? -1) ||
    a.name.localeCompare(b.name) ||
    a.id.localeCompare(b.id)
  );
}

export function toResultEntry(p: Pro, distanceMiles: number): SearchResultEntry {
  return {
    id: p.id,
    name: p.name,
    phone: p.phone,
    address: p.address,
    rating: p.rating,
    review_count: p.reviewCount,
    distance_miles: roundTenth(distanceMiles),
    website: p.website,
    description: p.description,
    services: p.services,
  };
}

/** Keeps the candidates inside the radius, ranks them and cuts to the limit. */
export function rankWithinRadius(candidates: readonly Pro[], p: Omit<SearchParams, 'category'>): SearchOutcome {
  const inside: SearchResultEntry[] = [];
  for (const pro of candidates) {
    const d = haversineMiles(p.lat, p.lng, pro.lat, pro.lng);
    if (d <= p.radiusMiles) inside.push(toResultEntry(pro, d));
  }
  inside.sort(compareRanked);
  return { results: inside.slice(0, p.limit), total: inside.length };
}

export async function searchDirectory(store: LeadStore, p: SearchParams): Promise<SearchOutcome> {
  const candidates = await store.findProsInBox(p.category, boundingBox(p.lat, p.lng, p.radiusMiles));
  return rankWithinRadius(candidates, p);
}
