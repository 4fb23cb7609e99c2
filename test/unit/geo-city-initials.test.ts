// A big city written by its initials with its region ("SF, CA", "S.F., California"): the region's city of
// those initials, below 0.7 and saying so. Examples are common public usage, chosen for the test.
import { describe, expect, it } from 'vitest';
import { geocodeEmbedded } from '../../src/geo/place/embedded-geocoder.js';
import { locate, shippedGazetteer, useShippedGazetteer } from '../support/embedded-geocoder.js';

useShippedGazetteer();

describe('a city by its initials', () => {
  it.each([
    ['SF, CA', 'San Francisco', 'CA'],
    ['S.F., California', 'San Francisco', 'CA'],
    ['SLC, UT', 'Salt Lake City', 'UT'],
    ['LV, NV', 'Las Vegas', 'NV'],
    ['SD, CA', 'San Diego', 'CA'],
  ])('%s is %s', (q, city, state) => {
    const r = locate(q);
    expect(r.precision).toBe('locality');
    expect(r.components).toMatchObject({ city, state_code: state, country_code: 'US' });
    expect(r.confidence).toBeLessThan(0.7);
    expect(r.notes.join(' ')).toContain(`was read as the initials of ${city}`);
  });

  it('needs the region, capitals, and a city big enough to be written so', () => {
    // Without the region, two letters are no city.
    expect(geocodeEmbedded(shippedGazetteer(), 'SF')?.components.city).not.toBe('San Francisco');
    // Written in lower case the letters are a name, not initials.
    expect(geocodeEmbedded(shippedGazetteer(), 'sf, CA')?.components.city).not.toBe('San Francisco');
    const california = shippedGazetteer().regions('California', false, 'US')[0]!;
    expect(shippedGazetteer().townByInitials('SF', california)?.name).toBe('San Francisco');
    // No city of 100,000 or more in California has these initials.
    expect(shippedGazetteer().townByInitials('QX', california)).toBeUndefined();
  });
});
