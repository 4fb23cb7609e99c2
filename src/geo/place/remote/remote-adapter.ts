// What a remote geocoder adapter is: how to ask one provider (the URL) and how to read its documented
// answer into our result shape. The transport (guarded HTTP, rate limit, cache) lives in remote-geocoder.ts.
import { LEVEL_CONFIDENCE, FACTOR, roundConfidence, type Precision } from '../confidence.js';
import type { GeocoderKind, PlaceComponents, PlaceResult } from '../place-result.js';
import { roundCoordinate } from '../place-result.js';

export interface RemoteAdapter {
  kind: Exclude<GeocoderKind, 'embedded'>;
  /** The search URL for one free-text query, below the configured base URL. */
  searchUrl(base: URL, query: string): URL;
  /** Reads the provider's JSON answer; null when it found nothing. Throws on a body of the wrong shape. */
  read(body: unknown, query: string): PlaceResult | null;
}

export interface RemoteMatch {
  lat: number;
  lng: number;
  precision: Precision;
  /** The provider's own match score (0..1) when it gives one. */
  score: number | null;
  formatted: string;
  components: PlaceComponents;
  attribution: string;
}

/** A house number at the start, or one after a street word: the caller asked for a street address. */
function asksForStreet(query: string): boolean {
  return /^\s*\d+[a-z]?\s+\S/i.test(query);
}

/** Our confidence for a provider's match: the level's starting value times the provider's score. */
export function toPlaceResult(kind: RemoteAdapter['kind'], m: RemoteMatch, query: string): PlaceResult {
  const notes: string[] = [];
  let confidence = LEVEL_CONFIDENCE[m.precision] * (m.score ?? 1);
  if (m.score !== null && m.score < 1) notes.push(`${kind} scored the match ${m.score}`);
  if (asksForStreet(query) && m.precision !== 'address' && m.precision !== 'street') {
    confidence *= FACTOR.coarserThanAsked;
    notes.push(`${kind} answered at ${m.precision.replace('_', ' ')} level`);
  }
  return {
    lat: roundCoordinate(m.lat),
    lng: roundCoordinate(m.lng),
    confidence: roundConfidence(confidence),
    formatted_address: m.formatted,
    components: m.components,
    precision: m.precision,
    candidates: 1,
    alternatives: [],
    source: { kind, attribution: m.attribution, fallback_reason: null },
    notes,
  };
}

export function str(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : null;
}

export function coordinate(v: unknown, limit: number): number {
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || Math.abs(n) > limit) throw new Error(`not a coordinate: ${JSON.stringify(v)}`);
  return n;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
