// Bare town names that several places share (issue 33): the pick weighs size, and `alternatives` carries the
// other likely meanings. Examples are public places chosen for the test.
import { describe, expect, it } from 'vitest';
import { locate, useShippedGazetteer } from '../support/embedded-geocoder.js';

useShippedGazetteer();

describe('a town named with a bracketed qualifier is found by its everyday name', () => {
  it.each([
    // GeoNames names it "Halle (Saale)": the city of 230,000, not the Belgian or Westphalian towns of 20–35,000.
    ['Halle', 'Halle (Saale)', 'DE'],
    ['Halle, Germany', 'Halle (Saale)', 'DE'],
  ])('%s → %s', (q, city, country) => {
    expect(locate(q).components).toMatchObject({ city, country_code: country });
  });

  it('the smaller towns of the name stay offered', () => {
    expect(locate('Halle').alternatives.map((a) => a.country_code)).toContain('BE');
  });

  it('the qualifier still picks its own town', () => {
    expect(locate('Frankfurt (Oder)').components).toMatchObject({ city: 'Frankfurt (Oder)', state: 'Brandenburg' });
    expect(locate('Frankfurt').components.city).toBe('Frankfurt am Main');
  });
});

describe('a town named after its river or coast is found by the name before the linking word', () => {
  it.each([
    ['Southend', 'Southend-on-Sea', 'GB'],
    ['Ludwigshafen', 'Ludwigshafen am Rhein', 'DE'],
    ['Stoke', 'Stoke-on-Trent', 'GB'],
  ])('%s → %s', (q, city, country) => {
    expect(locate(q).components).toMatchObject({ city, country_code: country });
  });

  it('a bigger town of the bare name still answers, and the linked one is offered', () => {
    const r = locate('Newcastle');
    expect(r.alternatives.map((a) => a.formatted_address)).toContain('Newcastle upon Tyne, England, United Kingdom');
  });
});
