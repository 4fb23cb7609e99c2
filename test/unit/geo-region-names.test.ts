// Where region names come from beyond the first-level data's own names: Wikipedia article names, and CLDR's
// subdivisions that the first-level data lacks (read from the installed packages).
import { describe, expect, it } from 'vitest';
import { loadMinorRegions } from '../../src/geo/place/minor-regions.js';
import { loadWorldRegions, wikipediaTitleName } from '../../src/geo/place/world-regions.js';

describe('wikipediaTitleName', () => {
  it.each([
    ['en:Vilniaus_Apskritis', 'Vilniaus Apskritis'],
    ['en:Attiki_(periphery)', 'Attiki'],
    ['en:Tripoli_District,_Libya', 'Tripoli District'],
    [null, undefined],
    ['en:', undefined],
  ])('%s → %s', (reference, name) => {
    expect(wikipediaTitleName(reference)).toBe(name);
  });
});

describe('loadMinorRegions', () => {
  it('adds the subdivisions the region data lacks, each within its first-level region, and none it has', async () => {
    const known = await loadWorldRegions();
    const minor = await loadMinorRegions(known);
    const benguet = minor.find((s) => s.country === 'PH' && s.name === 'Benguet');
    expect(benguet).toMatchObject({ iso: 'BEN', admin1: '15', within: { country: 'PH', admin1: '15' } });
    // A London borough lies in England (a curated region, matched by its code).
    expect(minor.find((s) => s.country === 'GB' && s.iso === 'WSM')?.within).toMatchObject({ code: 'ENG' });
    // Serbia's City of Belgrade lies directly in the country: no first-level region to put it in.
    expect(minor.find((s) => s.country === 'RS' && s.iso === '00')).toMatchObject({ name: 'Beograd', within: null });
    // Vilnius County is in the region data (LT-VL): not added again.
    expect(minor.some((s) => s.country === 'LT' && s.iso === 'VL')).toBe(false);
  });
});
