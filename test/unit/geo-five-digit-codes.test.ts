// Five-digit postal codes and what decides whose they are (issue 33): a US ZIP, or the code of one of the
// many countries with five digits. Alone, the answer says the doubt and offers the others; with a town or a
// country written, that decides, whichever side of the code it is written on. Examples are public places and
// their published codes, chosen for the test.
import { describe, expect, it } from 'vitest';
import { distanceKm } from '../../src/geo/place/gazetteer.js';
import { placePostalCodes } from '../../src/geo/place/postal-match.js';
import { locate, shippedGazetteer, useShippedGazetteer } from '../support/embedded-geocoder.js';

useShippedGazetteer();

describe('five digits before the town read as a US ZIP where it fits', () => {
  it.each([
    // Lancaster, PA's ZIP: not the bigger Lancaster in California.
    ['17608 Lancaster', 'Lancaster', 'PA', '17608'],
    ['44120 Cleveland', 'Cleveland', 'OH', '44120'],
    ['44120 Cleveland, OH', 'Cleveland', 'OH', '44120'],
  ])('%s is the ZIP of %s, %s', (q, city, state, zip) => {
    const r = locate(q);
    expect(r.precision).toBe('postal_code');
    expect(r.components).toMatchObject({ city, state_code: state, postal_code: zip, country_code: 'US' });
  });

  it('either order gives the same answer', () => {
    for (const [a, b] of [
      ['17608 Lancaster', 'Lancaster 17608'],
      ['76121 Barletta', 'Barletta 76121'],
      ['00144 Roma', 'Roma 00144'],
    ]) {
      const [ra, rb] = [locate(a!), locate(b!)];
      expect([ra.formatted_address, ra.confidence], a).toEqual([rb.formatted_address, rb.confidence]);
    }
  });

  it('a town abroad that is not near the ZIP still makes the digits its own country’s code', () => {
    expect(locate('10117 Berlin').components.country_code).toBe('DE');
    expect(locate('75008 Paris').components.country_code).toBe('FR');
    expect(locate('76121 Barletta').components.country_code).toBe('IT');
  });
});

describe('a code alone that several countries’ tables hold', () => {
  it('is the less sure the more countries hold it', () => {
    // A US ZIP alone, one Berlin shares, and one French and Finnish towns share too.
    expect(locate('94043').confidence).toBeGreaterThan(locate('10117').confidence);
    expect(locate('10117').confidence).toBeGreaterThan(locate('44120').confidence);
    // Codes of the tables abroad alike: Munich's alone, one of Finland and France, one of France, Finland and Germany.
    expect(locate('80331').confidence).toBeGreaterThan(locate('01120').confidence);
    expect(locate('01120').confidence).toBeGreaterThan(locate('33100').confidence);
  });

  it.each(['33100', '44120', '01120', '2000'])('%s offers every other country holding it, each once', (q) => {
    const r = locate(q);
    const countries = [r.components.country_code, ...r.alternatives.map((a) => a.country_code)];
    expect(new Set(countries).size).toBe(countries.length);
    expect(countries.length).toBeGreaterThan(1);
    expect(r.notes.join(' ')).toMatch(/see alternatives/);
  });

  it('an alternative abroad is named with its own region, not the chosen town’s', () => {
    expect(locate('33100').alternatives.map((a) => a.formatted_address)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Tampere, Pirkanmaa, Finland$/), expect.stringMatching(/^Paderborn, North Rhine-Westphalia, Germany$/)]),
    );
  });
});

describe('a country written before the code decides whose code it is', () => {
  it.each([
    // 13353 is Berlin's code and a US ZIP (Hoffmeister, NY): the country written first settles it.
    ['Germany 13353', 'Berlin', 'DE'],
    ['Deutschland, 10117 Berlin', 'Berlin', 'DE'],
    ['France 75008', 'Paris', 'FR'],
    ['España 28014 Madrid', 'Madrid', 'ES'],
  ])('%s → %s (%s)', (q, city, country) => {
    expect(locate(q).components).toMatchObject({ city, country_code: country });
  });

  it('a code of a country without a table, after its name, answers the country and is no US ZIP', () => {
    const r = locate('Spain 28014');
    expect(r.precision).toBe('country');
    expect(r.components.country_code).toBe('ES');
  });

  it('words that also name a US state or town stay readable as it when the ZIP is theirs', () => {
    expect(locate('Georgia 30303').components).toMatchObject({ city: 'Atlanta', state_code: 'GA', country_code: 'US' });
    expect(locate('Lebanon 17042').components).toMatchObject({ city: 'Lebanon', state_code: 'PA', country_code: 'US' });
  });
});

describe('ZIPs of the freely associated states', () => {
  it.each([
    ['Kosrae 96944', 'FM'],
    ['96940', 'PW'],
  ])('%s is answered in its own country (%s), not the United States', (q, country) => {
    const r = locate(q);
    expect(r.components.country_code).toBe(country);
    expect(r.formatted_address).not.toMatch(/United States|\s,/);
    expect(r.alternatives.map((a) => a.country_code)).not.toContain('US');
  });

  it('a US territory’s ZIP stays the United States (a US subdivision)', () => {
    expect(locate('00901').components).toMatchObject({ country_code: 'US', state_code: 'PR' });
  });
});

describe('a code whose town the gazetteer does not hold', () => {
  it('alone, is a neighbouring code’s town in its region, below 0.5, saying why (not no match)', () => {
    // Elchingen's code: the German table has it, the gazetteer has no Elchingen (48.45 N, 10.10 E); its
    // neighbours 8927x serve the towns around it.
    const r = locate('89275');
    expect(r.precision).toBe('locality');
    expect(r.components).toMatchObject({ state: 'Bavaria', country_code: 'DE' });
    expect(distanceKm(r, { lat: 48.45, lng: 10.1 })).toBeLessThan(30);
    expect(r.confidence).toBeLessThan(0.5);
    expect(r.notes.join(' ')).toMatch(/serves Elchingen, which the embedded data does not place: answered at .+, the largest town of the codes beginning 8927/);
  });

  it('beside the town the table names for it, is that region', () => {
    expect(locate('Amance 10140').components).toMatchObject({ state: 'Grand Est', country_code: 'FR' });
  });

  it('written before that town with the country named, is in that region, not a house number and its street', () => {
    for (const [q, state, country] of [
      ['89275 Elchingen, Germany', 'Bavaria', 'DE'],
      ['10140 Amance, France', 'Grand Est', 'FR'],
    ] as const) {
      const r = locate(q);
      expect(r.precision).toBe('locality');
      expect(r.components).toMatchObject({ state, country_code: country, postal_code: q.slice(0, 5), street: null, house_number: null });
    }
    // A street word keeps the number a house number ("12 Hauptstraße" is no code and town), and so does the US.
    expect(locate('1234 Hauptstraße, Germany').components.postal_code).toBeNull();
  });

  it('comes after a code of another country placed at a town, whatever that town’s size', () => {
    // 32440: Loimaa, Finland (no population in the data) and a French village the gazetteer lacks.
    const matches = placePostalCodes(shippedGazetteer(), shippedGazetteer().postal.lookup('32440', null));
    expect(matches.map((m) => [m.code.country, m.regionOnly])).toEqual([
      ['FI', false],
      ['FR', true],
    ]);
  });
});

describe('a code no table confirms, beside a town (issue 33)', () => {
  it.each(['28014 Madrid', 'Madrid 28014', 'Calle de Alarcón, 23 28014 Madrid'])('%s is Madrid, below 0.7, saying the code was not checked', (q) => {
    const r = locate(q);
    expect(r.precision).toBe('locality');
    expect(r.components).toMatchObject({ city: 'Madrid', country_code: 'ES', postal_code: '28014' });
    expect(r.confidence).toBeLessThan(0.7);
    expect(r.notes.join(' ')).toMatch(/28014 could not be checked/);
  });

  it('both orders are read alike', () => {
    const [a, b] = [locate('28014 Madrid'), locate('Madrid 28014')];
    expect([a.formatted_address, a.confidence]).toEqual([b.formatted_address, b.confidence]);
  });

  it('a code not of the country’s form says it may be another country’s, lower still', () => {
    // Spain's codes have five digits.
    const r = locate('Madrid 2800');
    expect(r.components).toMatchObject({ city: 'Madrid', country_code: 'ES' });
    expect(r.confidence).toBeLessThan(locate('Madrid 28001').confidence);
    expect(r.notes.join(' ')).toMatch(/Spain does not write its postal codes so/);
  });

  it('a code of letters and digits, which names its country by its form, keeps the town’s usual confidence', () => {
    expect(locate('London SW1A 2AA, UK').confidence).toBe(0.8);
  });

  it.each([
    // Córdoba, Andalusia's codes are 14001–14014; Argentina's Córdoba (the bigger) writes four digits or a CPA.
    ['Córdoba 14001', 'Córdoba', 'ES'],
    ['14001 Córdoba', 'Córdoba', 'ES'],
    // Cartagena, Murcia (30201–30205); Colombia's Cartagena (the bigger) has six-digit codes.
    ['30201 Cartagena', 'Cartagena', 'ES'],
  ])('%s: the town of the country that writes codes so (%s, %s), not a bigger namesake', (q, city, country) => {
    expect(locate(q).components).toMatchObject({ city, country_code: country });
  });

  it('without the code, the bigger namesake stays first', () => {
    expect(locate('Córdoba').components.country_code).toBe('AR');
  });
});
