// Five-digit postal codes and what decides whose they are (issue 33): a US ZIP, or the code of one of the
// many countries with five digits. Alone, the answer says the doubt and offers the others; with a town or a
// country written, that decides, whichever side of the code it is written on. Examples are public places and
// their published codes, chosen for the test.
import { describe, expect, it } from 'vitest';
import { locate, useShippedGazetteer } from '../support/embedded-geocoder.js';

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
