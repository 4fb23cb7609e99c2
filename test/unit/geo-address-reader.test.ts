// The address tokenizer, against a small lexicon of known places (the real gazetteer is exercised by
// test/integration/geo.locate.test.ts; here the point is how text is split, not what exists).
import { describe, expect, it } from 'vitest';
import { readAddress, type AddressLexicon, type AddressReading } from '../../src/geo/place/address-reader.js';
import { subdivisionByCode, subdivisionByName, SUBDIVISIONS } from '../../src/geo/shared/subdivisions.js';
import { normaliseName } from '../../src/geo/shared/text.js';

const PLACES: [name: string, country: string, admin1: string][] = [
  ['Mountain View', 'US', 'CA'],
  ['Springfield', 'US', 'IL'],
  ['New York City', 'US', 'NY'],
  ['New York', 'US', 'NY'],
  ['Paris', 'FR', '11'],
  ['Paris', 'US', 'TX'],
  ['Berlin', 'DE', '16'],
  ['London', 'GB', 'ENG'],
  ['London', 'CA', '08'],
  ['Toronto', 'CA', '08'],
];
const COUNTRIES: Record<string, string> = {
  france: 'FR',
  germany: 'DE',
  'united kingdom': 'GB',
  uk: 'GB',
  canada: 'CA',
  israel: 'IL',
  usa: 'US',
  'united states': 'US',
  georgia: 'GE',
};
const CODES = new Set(['FR', 'DE', 'GB', 'CA', 'IL', 'US', 'GE', 'JP', 'IN']);

const lexicon: AddressLexicon = {
  countryCodeByName: (t) => COUNTRIES[normaliseName(t)],
  isCountryCode: (c) => CODES.has(c.toUpperCase()),
  countryCodeByAlpha3: (c) => ({ DEU: 'DE', FRA: 'FR', EGY: 'EG' })[c.toUpperCase()],
  regions: (t, codes) => {
    const found = SUBDIVISIONS.filter((s) => subdivisionByName(s.country, t) === s);
    if (codes)
      for (const c of ['US', 'CA', 'AU', 'GB']) {
        const s = subdivisionByCode(c, t);
        if (s && !found.includes(s)) found.push(s);
      }
    return found;
  },
  hasLocality: (name, country, admin1) =>
    PLACES.some(([n, c, a]) => normaliseName(n) === normaliseName(name) && (!country || c === country) && (!admin1 || a === admin1)),
};

const read = (s: string) => readAddress(s, lexicon);
const summary = (r: AddressReading) => ({
  house: r.houseNumber,
  street: r.street,
  locality: r.locality,
  region: r.region ? `${r.region.country}-${r.region.code}` : null,
  country: r.country,
  postal: r.postalCode,
  zip5: r.zip5,
});

describe('name keys', () => {
  it('write initials as one word and fold accents of the alphabets only', () => {
    expect(normaliseName('Washington D.C.')).toBe(normaliseName('Washington DC'));
    expect(normaliseName('U.S. Virgin Islands')).toBe('us virgin islands');
    expect(normaliseName('Île-de-France')).toBe('ile de france');
    expect(normaliseName('Санкт-Петербург')).toBe('санкт петербург');
    // A Latin letter typed by mistake inside a Cyrillic word is its Cyrillic look-alike.
    expect(normaliseName('Бългaрия')).toBe(normaliseName('България'));
    expect(normaliseName('Москва Russia')).toBe('москва russia');
    // Devanagari vowel signs are letters' parts: two different names stay different.
    expect(normaliseName('दिल्ली')).not.toBe(normaliseName('दल्ल'));
  });

  it('fold Arabic script as search engines do: hamza, madda and short vowels off, alef maqsura and Persian letters mapped', () => {
    expect(normaliseName('أبو ظبي')).toBe(normaliseName('ابو ظبى'));
    expect(normaliseName('الإسكندرية')).toBe(normaliseName('الاسكندرية'));
    expect(normaliseName('بیروت')).toBe(normaliseName('بيروت'));
    expect(normaliseName('کابل')).toBe(normaliseName('كابل'));
    expect(normaliseName('مَكَّة')).toBe(normaliseName('مكه'));
    // Different letters stay different.
    expect(normaliseName('عمان')).not.toBe(normaliseName('غمان'));
  });
});

describe('US addresses', () => {
  it('reads a full address with commas', () => {
    const readings = read('1600 Amphitheatre Parkway, Mountain View, CA 94043');
    // "CA" before a ZIP is the state: no Canada reading is offered.
    expect(readings.map(summary)).toEqual([
      { house: '1600', street: 'Amphitheatre Parkway', locality: 'Mountain View', region: 'US-CA', country: null, postal: '94043', zip5: '94043' },
    ]);
  });

  it('finds the city inside a comma-less address by asking the lexicon', () => {
    const readings = read('1600 Amphitheatre Pkwy Mountain View CA 94043-1351').map(summary);
    expect(readings).toContainEqual({
      house: '1600',
      street: 'Amphitheatre Pkwy',
      locality: 'Mountain View',
      region: 'US-CA',
      country: null,
      postal: '94043-1351',
      zip5: '94043',
    });
  });

  it('reads "City, ST", "City ST" and a state name', () => {
    expect(read('Springfield, IL').map(summary)).toContainEqual(expect.objectContaining({ locality: 'Springfield', region: 'US-IL' }));
    expect(read('Paris TX').map(summary)).toContainEqual(expect.objectContaining({ locality: 'Paris', region: 'US-TX' }));
    expect(read('Springfield, Illinois').map(summary)).toContainEqual(expect.objectContaining({ locality: 'Springfield', region: 'US-IL' }));
  });

  it('keeps IL both as Illinois and as Israel', () => {
    const readings = read('Springfield, IL');
    expect(readings.some((r) => r.region?.code === 'IL' && r.country === null)).toBe(true);
    expect(readings.some((r) => r.country === 'IL' && r.region === null)).toBe(true);
  });

  it('reads a lone ZIP, and a unit out of the street', () => {
    expect(summary(read('94043')[0]!)).toMatchObject({ zip5: '94043', locality: null });
    const r = read('350 Fifth Avenue Suite 300, New York, NY 10118').find((x) => x.region?.code === 'NY')!;
    expect(r).toMatchObject({ houseNumber: '350', street: 'Fifth Avenue', unit: 'Suite 300', locality: 'New York', zip5: '10118' });
  });

  it('offers a lone region name also as a city name ("New York")', () => {
    const readings = read('New York');
    expect(readings.some((r) => r.region?.code === 'NY' && r.locality === null)).toBe(true);
    expect(readings.some((r) => r.region === null && r.locality === 'New York' && r.areaNameAsLocality)).toBe(true);
  });

  it('does not take a lower-case word inside a name for a state code', () => {
    expect(read('Mountain View ca').every((r) => r.region === null || r.locality === null)).toBe(true);
  });
});

describe('international addresses', () => {
  it('reads a trailing country name, then the city', () => {
    expect(read('Paris, France').map(summary)).toEqual([
      { house: null, street: null, locality: 'Paris', region: null, country: 'FR', postal: null, zip5: null },
    ]);
  });

  it('reads a postal code before the city, and never as a US ZIP', () => {
    const [r] = read('75008 Paris, France');
    expect(summary(r!)).toMatchObject({ locality: 'Paris', country: 'FR', postal: '75008', zip5: null });
  });

  it('reads a house number after the street name', () => {
    const [r] = read('Friedrichstraße 43, 10117 Berlin, Germany');
    expect(summary(r!)).toEqual({ house: '43', street: 'Friedrichstraße', locality: 'Berlin', region: null, country: 'DE', postal: '10117', zip5: null });
  });

  it('reads a UK postcode and the everyday name "UK"', () => {
    const [r] = read('10 Downing Street, London SW1A 2AA, UK');
    expect(summary(r!)).toEqual({ house: '10', street: 'Downing Street', locality: 'London', region: null, country: 'GB', postal: 'SW1A 2AA', zip5: null });
  });

  it('reads a street kind word after the street name as the street’s, not as a town of that name (Street, Somerset)', () => {
    expect(summary(read('10 Downing Street, SW1A 2AA')[0]!)).toEqual({
      house: '10',
      street: 'Downing Street',
      locality: null,
      region: null,
      country: 'GB',
      postal: 'SW1A 2AA',
      zip5: null,
    });
    expect(summary(read('Baker Street NW1 6XE')[0]!)).toMatchObject({ street: 'Baker Street', locality: null });
    expect(summary(read('Main Street')[0]!)).toMatchObject({ street: 'Main Street', locality: null });
  });

  it('infers the country from a UK or Canadian postcode when none is written', () => {
    expect(read('London SW1A 2AA')[0]!.country).toBe('GB');
    expect(read('Toronto ON M5V 3L9').map(summary)).toContainEqual(
      expect.objectContaining({ locality: 'Toronto', region: 'CA-ON', country: 'CA', postal: 'M5V 3L9' }),
    );
  });

  it('reads a two-letter country code', () => {
    expect(read('Berlin, DE').map(summary)).toContainEqual(expect.objectContaining({ locality: 'Berlin', country: 'DE' }));
    // DE is also Delaware: both readings are offered.
    expect(read('Berlin, DE').some((r) => r.region?.code === 'DE')).toBe(true);
  });

  it('reads a house number and a postal code written before the city in its part', () => {
    const [r] = read('Calle de Alarcón, 23 28014 Berlin, Germany');
    expect(summary(r!)).toMatchObject({ house: '23', street: 'Calle de Alarcón', locality: 'Berlin', country: 'DE', postal: '28014' });
  });

  it('reads text with numbers in it as street material, not as a town or a building name', () => {
    const [r] = read('Cra 18#63-64 B, Paris, France');
    expect(summary(r!)).toMatchObject({ street: 'Cra 18#63-64 B', locality: 'Paris', country: 'FR' });
    expect(r!.leftovers).toEqual([]);
  });

  it('reads a country name that holds a comma as the country', () => {
    const lex: AddressLexicon = {
      ...lexicon,
      countryCodeByName: (t) => (normaliseName(t) === 'saint helena ascension and tristan da cunha' ? 'SH' : undefined),
    };
    expect(readAddress('Saint Helena, Ascension and Tristan da Cunha', lex).map(summary)).toEqual([
      { house: null, street: null, locality: null, region: null, country: 'SH', postal: null, zip5: null },
    ]);
  });

  it('keeps a name it cannot place as a leftover, not as a street', () => {
    const [r] = read('Eiffel Tower, Paris, France');
    expect(r).toMatchObject({ locality: 'Paris', street: null, leftovers: ['Eiffel Tower'] });
  });
});
