// The gazetteer's quick lookups must agree with the full ones they stand in for: `hasLocality` answers
// without building the list `localities` builds (the reader asks it for every split of an address), and
// long region names are found through an index of their first words instead of a scan of every name.
import { describe, expect, it } from 'vitest';
import { shippedGazetteer, useShippedGazetteer } from '../support/embedded-geocoder.js';

useShippedGazetteer();

// Names with places in one or many countries, other (alternate) names, ZIP-only US towns, a region's name,
// and nonsense: each asked with no filter, a country, and a country and region.
const NAMES = [
  'Springfield',
  'Paris',
  'London',
  'Westminster',
  'Williamsport',
  'Milano',
  'München',
  'Bombay',
  'Kent',
  'Georgia',
  'Sydney',
  'Zzyzx',
  'Qwertyville',
  'Saint Louis',
  'Hoffmeister',
  'Manchester',
  'Alliance',
];
const FILTERS: [string | null, string | null][] = [
  [null, null],
  ['US', null],
  ['US', 'IL'],
  ['US', 'OH'],
  ['US', 'NY'],
  ['GB', null],
  ['FR', null],
  ['IT', null],
  ['IN', null],
  ['AU', null],
];

describe('gazetteer lookups', () => {
  it('hasLocality is true exactly when localities finds a place', () => {
    const g = shippedGazetteer();
    const seen = new Set<boolean>();
    for (const name of NAMES) {
      for (const [country, admin1] of FILTERS) {
        const full = g.localities(name, { country, admin1 }).length > 0;
        seen.add(full);
        expect(g.hasLocality(name, country, admin1), `${name} in ${country ?? 'any'}/${admin1 ?? 'any'}`).toBe(full);
      }
    }
    // Both answers occur, so the comparison is not trivially one-sided.
    expect([...seen].sort()).toEqual([false, true]);
  });

  it('a long name that begins a region’s name finds that region, and only through whole words', () => {
    const g = shippedGazetteer();
    expect(g.regions('Dadra and Nagar Haveli', false).map((s) => s.country)).toContain('IN');
    expect(g.regions('Dadra and Nagar Hav', false)).toEqual([]);
  });
});
