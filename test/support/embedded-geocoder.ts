// The embedded geocoder over the real shipped data, for tests that pin its answers: the gazetteer is loaded
// once per test file (call `useShippedGazetteer()` at the top level), `locate` fails the test on no match.
import { beforeAll } from 'vitest';
import { geocodeEmbedded } from '../../src/geo/place/embedded-geocoder.js';
import { Gazetteer } from '../../src/geo/place/gazetteer.js';
import type { PlaceResult } from '../../src/geo/place/place-result.js';

let gazetteer: Gazetteer | undefined;

export function useShippedGazetteer(): void {
  // A bound, not a timing assertion: on a fresh checkout the first file to load builds the name keys from
  // the data packages, which on a busy 2-core CI machine took over a minute (CI, 2026-11-29).
  beforeAll(async () => {
    gazetteer ??= await Gazetteer.load();
  }, 180_000);
}

export function shippedGazetteer(): Gazetteer {
  if (!gazetteer) throw new Error('call useShippedGazetteer() first');
  return gazetteer;
}

export function locate(q: string): PlaceResult {
  const r = geocodeEmbedded(shippedGazetteer(), q);
  if (!r) throw new Error(`no match for ${q}`);
  return r;
}
