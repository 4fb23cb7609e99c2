// Our own address tokenizer. Addresses are read from the end, where the coarse parts are: country (name or
// ISO code), postal code, region (state name or code), then the city, and what is left before it is the
// street part (house number, street, unit). US conventions first ("1600 Amphitheatre Pkwy, Mountain View,
// CA 94043", "Springfield, IL"), then international ones ("Paris, France", "75008 Paris, France",
// "Friedrichstraße 43, 10117 Berlin, Germany", "10 Downing St, London SW1A 2AA, UK").
//
// Where a word can be read two ways (IL: Illinois or Israel; CA: California or Canada; "Georgia"; "New
// York" the state or the city) every reading is returned and the resolver keeps the one that matches
// best. A reading never decides by itself what exists: the lexicon (the gazetteer) is asked.
import type { Subdivision } from '../shared/subdivisions.js';
import { foldText } from '../shared/text.js';

export interface AddressLexicon {
  countryCodeByName(text: string): string | undefined;
  isCountryCode(code: string): boolean;
  /** ISO 3166-1 alpha-3 → alpha-2 ("DEU" → "DE"). */
  countryCodeByAlpha3(code: string): string | undefined;
  /** Regions named `text` (or coded, when `codes`), within `country` when one is given. */
  regions(text: string, codes: boolean, country?: string | null): Subdivision[];
  hasLocality(name: string, country: string | null, admin1: string | null): boolean;
}

export interface AddressReading {
  houseNumber: string | null;
  street: string | null;
  unit: string | null;
  /** Postal code as written (ZIP+4 kept). */
  postalCode: string | null;
  /** The five-digit US ZIP, when the postal code has that form and sits where a US ZIP goes. */
  zip5: string | null;
  locality: string | null;
  region: Subdivision | null;
  /** ISO 3166-1 alpha-2 code of a country named in the address (or implied by a UK/Canadian postcode). */
  country: string | null;
  /** The locality is a region or country name taken as a place name ("New York", "Singapore"). */
  areaNameAsLocality: boolean;
  /** Parts that are neither street, city, region nor country (a building or business name). */
  leftovers: string[];
  /** The words split off a place part that named no place as a whole ("Schwabing" of "München Schwabing"): a
   * district by its position only, until the data places it beside the town. */
  splitDistrict?: string;
  /** The town was read from a part before the last ("Stocks Ln, Knutsford, Cheshire East"): the last part, where
   * the town usually stands, was read as something else or left unused. */
  townBeforeEnd?: boolean;
  /** The town is the first of two parts, and the last names no place the data knows ("Fenstanton, Huntingdonshire"). */
  lastPartUnknown?: boolean;
}

interface Tok {
  text: string;
  seg: number;
}

const UNIT_WORDS = new Set(['apt', 'apartment', 'suite', 'ste', 'unit', 'fl', 'floor', 'rm', 'room', 'bldg', 'building', 'no', 'dept', 'po']);

const STREET_WORDS = new Set([
  // English (full and USPS-style abbreviations)
  'street',
  'st',
  'avenue',
  'ave',
  'av',
  'road',
  'rd',
  'boulevard',
  'blvd',
  'lane',
  'ln',
  'drive',
  'dr',
  'court',
  'ct',
  'place',
  'pl',
  'way',
  'parkway',
  'pkwy',
  'highway',
  'hwy',
  'terrace',
  'ter',
  'circle',
  'cir',
  'square',
  'sq',
  'trail',
  'trl',
  'route',
  'rte',
  'alley',
  'row',
  'crescent',
  'close',
  'plaza',
  'pike',
  'loop',
  'path',
  'expressway',
  'expy',
  'freeway',
  'fwy',
  'turnpike',
  'tpke',
  'mews',
  'gardens',
  'grove',
  'hill',
  'walk',
  'broadway',
  // Other languages: words that come before the name
  'rue',
  'avenue',
  'allee',
  'chemin',
  'impasse',
  'quai',
  'via',
  'viale',
  'piazza',
  'corso',
  'calle',
  'avenida',
  'carrer',
  'paseo',
  'plaza',
  'rua',
  'travessa',
  'praca',
  'ulica',
  'ul',
]);

/** Compound street endings (German, Dutch, Scandinavian): "Friedrichstraße", "Kalverstraat", "Drottninggatan". */
const STREET_SUFFIXES = [
  'strasse',
  'str',
  'gasse',
  'weg',
  'platz',
  'allee',
  'ring',
  'damm',
  'ufer',
  'straat',
  'laan',
  'gracht',
  'gatan',
  'gata',
  'vagen',
  'vej',
  'gade',
  'veien',
  'tie',
  'katu',
];

const HOUSE_NUMBER = /^(\d{1,6}[a-z]?(-\d{1,6}[a-z]?)?|\d{1,5}\/\d{1,5})$/i;
const US_ZIP = /^(\d{5})(-\d{4})?$/;
const UK_POSTCODE = /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i;
const CA_POSTCODE = /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/i;
/** A UK postcode's outward code (postal district) and a Canadian forward sortation area, written in capitals
 * ("SW1A", "EC2", "M5V"): the first half of a postcode, read where a postcode goes. */
const UK_OUTWARD_CODE = /^[A-Z]{1,2}\d[A-Z\d]?$/;
const CA_FSA = /^[A-Z]\d[A-Z]$/;
const NUMERIC_POSTCODE = /^\d{4,6}$/;

/** Postal codes whose form alone names their country (our own list of the national formats), as one token or,
 * for the Dutch, two ("1012 AB"). `written` gives the usual written form. */
const POSTCODE_FORMS: { country: string; form: RegExp; written: (s: string) => string }[] = [
  // Dutch codes run from 1000 ("0000 NA" is no Dutch code).
  { country: 'NL', form: /^[1-9]\d{3} ?[A-Z]{2}$/i, written: (s) => `${s.slice(0, 4)} ${s.replace(/\s+/g, '').slice(4).toUpperCase()}` },
  { country: 'JP', form: /^〒?\d{3}-\d{4}$/, written: (s) => s.replace('〒', '') },
  { country: 'BR', form: /^\d{5}-\d{3}$/, written: (s) => s },
  { country: 'PT', form: /^\d{4}-\d{3}$/, written: (s) => s },
  { country: 'PL', form: /^\d{2}-\d{3}$/, written: (s) => s },
  // Argentina's CPA: the province's letter, four digits, three letters ("C1010AAZ").
  { country: 'AR', form: /^[A-HJ-NP-Z]\d{4}[A-Z]{3}$/i, written: (s) => s.toUpperCase() },
  // Ireland's Eircode: a routing key ("D02", "W23", "D6W") and a four-character identifier ("D02 X285").
  { country: 'IE', form: /^(?:[AC-FHKNPRTV-Y]\d{2}|D6W)[ -]?[0-9AC-FHKNPRTV-Y]{4}$/i, written: (s) => spacedPostcode(s.replace('-', ''), 4) },
  // Codes written with their country's ISO code in front, as those countries' own formats have them.
  { country: 'LV', form: /^LV-?\d{4}$/i, written: prefixed(2, '-') },
  { country: 'LT', form: /^LT-?\d{5}$/i, written: prefixed(2, '-') },
  { country: 'MD', form: /^MD-?\d{4}$/i, written: prefixed(2, '-') },
  { country: 'AI', form: /^AI-?\d{4}$/i, written: prefixed(2, '-') },
  { country: 'AD', form: /^AD ?\d{3}$/i, written: prefixed(2, '') },
  { country: 'AZ', form: /^AZ ?\d{4}$/i, written: prefixed(2, ' ') },
  { country: 'BB', form: /^BB ?\d{5}$/i, written: prefixed(2, '') },
  { country: 'VG', form: /^VG ?\d{4}$/i, written: prefixed(2, '') },
  { country: 'VC', form: /^VC ?\d{4}$/i, written: prefixed(2, '') },
  { country: 'KY', form: /^KY\d-?\d{4}$/i, written: prefixed(3, '-') },
];

/** "lv1009" → "LV-1009": the code's prefix in capitals, then its separator and the digits. */
function prefixed(length: number, separator: string): (s: string) => string {
  return (s) => {
    const compact = s.replace(/[\s-]/g, '').toUpperCase();
    return `${compact.slice(0, length)}${separator}${compact.slice(length)}`;
  };
}

const UK_FORM_COUNTRIES = new Set(['GB', 'GG', 'JE', 'IM']);

/** The Channel Islands and the Isle of Man use UK-form postcodes of their own areas, but are not in the UK. */
function ukFormCountry(postcode: string): string {
  const area = postcode.slice(0, 2).toUpperCase();
  return area === 'GY' ? 'GG' : area === 'JE' ? 'JE' : area === 'IM' ? 'IM' : 'GB';
}

function postcodeForm(text: string): { country: string; postalCode: string } | null {
  const form = POSTCODE_FORMS.find((f) => f.form.test(text));
  return form ? { country: form.country, postalCode: form.written(text) } : null;
}

export function readAddress(input: string, lex: AddressLexicon): AddressReading[] {
  const tokens = tokenize(input);
  if (tokens.length === 0) return [];
  const readings: AddressReading[] = [];
  for (const c of countryOptions(tokens, lex)) {
    const postal = trailingPostal(c.rest, c.country);
    const country = c.country ?? postal.impliedCountry;
    for (const r of regionOptions(postal.rest, country, lex, !c.namesCountry)) {
      const known: Known = {
        country,
        region: r.region,
        postalCode: postal.postalCode,
        zip5: postal.zip5,
        areaNameAsLocality: c.areaNameAsLocality || r.areaNameAsLocality,
        cityWords: r.cityWords ?? null,
      };
      readings.push(...readPlaceAndStreet(r.rest, known, lex));
      // "Bellevue, King County, WA", "Dallas, Dallas County, Texas": a county or district named between the
      // town and the region is read past (the resolver keeps whichever reading matches).
      const withoutAreas = withoutAreaSegments(r.rest, lex);
      if (withoutAreas) readings.push(...readPlaceAndStreet(withoutAreas, known, lex));
      const areaTown = withAreaTown(r.rest, known, lex);
      if (areaTown) readings.push(...readPlaceAndStreet(areaTown, known, lex));
    }
  }
  return dedupe(readings);
}

/** Words that name an administrative area below the region when they open or close a part of an address
 * (our own list): "King County", "Co. Cork", "Landkreis Göttingen", "Regierungsbezirk Köln", "Orleans Parish". */
const AREA_KIND_WORDS = new Set([
  'county',
  'co',
  'parish',
  'district',
  'landkreis',
  'kreis',
  'bezirk',
  'regierungsbezirk',
  'departement',
  'arrondissement',
  'comarca',
  'okres',
  'powiat',
  'raion',
  'rayon',
]);

/** Words that close a first-level region's name whose other words are its capital's ("Lusaka Province",
 * "Kigali City", "Bamako District", "Beirut Governorate"; our own list). */
const REGION_KIND_WORDS = new Set(['province', 'region', 'district', 'city', 'governorate', 'division', 'county', 'state', 'prefecture']);

/** Whether a part of an address names a county or district by its kind ("Scott County", "Co. Cork"). */
export function namesArea(part: string): boolean {
  return isAreaSegment(part.split(/\s+/).map((text) => ({ text, seg: 0 })));
}

function isAreaSegment(toks: Tok[]): boolean {
  if (toks.length < 2) return false;
  const word = (t: Tok) => wordKey(t.text);
  return AREA_KIND_WORDS.has(word(toks[0]!)) || AREA_KIND_WORDS.has(word(toks[toks.length - 1]!));
}

/** The tokens without the parts after the first that name a county or district, or null when there are none
 * (or nothing would be left but one part). */
function withoutAreaSegments(tokens: Tok[], lex: AddressLexicon): Tok[] | null {
  const segs = groupBySegment(tokens);
  if (segs.length < 2) return null;
  const kept = segs.filter((seg, i) => i === 0 || !isAreaSegment(seg));
  // "Mary Street, Ela Beach National Capital District": a street left alone is not read as the town (a town named
  // with a street word, "Gillett Grove, Clay County", still is).
  const only = kept[0]!;
  if (kept.length === 1 && (HOUSE_NUMBER.test(only[0]!.text) || (hasStreetWord(only) && !lex.hasLocality(joined(only), null, null)))) return null;
  return kept.length === segs.length ? null : kept.flat();
}

/** Words joining an area's kind to its name ("District of Bratislava", "Arrondissement de Lyon"). */
const AREA_OF = new Set(['of', 'de', 'du', 'di', 'des']);

/**
 * "Staré Mesto, District of Bratislava": the last part, after the first, names an area by its kind and the
 * name of a town ("<kind> of <town>"), which is the area's town: the tokens with that part read as the town
 * (the resolver keeps whichever reading matches), or null.
 */
function withAreaTown(tokens: Tok[], known: Known, lex: AddressLexicon): Tok[] | null {
  const segs = groupBySegment(tokens);
  const last = segs[segs.length - 1]!;
  if (segs.length < 2 || last.length < 3) return null;
  const word = (t: Tok) => wordKey(t.text);
  if (!AREA_KIND_WORDS.has(word(last[0]!)) || !AREA_OF.has(word(last[1]!))) return null;
  const town = last.slice(2);
  if (!lex.hasLocality(joined(town), known.country ?? known.region?.country ?? null, known.region?.admin1 ?? null)) return null;
  return [...segs.slice(0, -1).flat(), ...town];
}

function tokenize(input: string): Tok[] {
  const segments = input
    // " - " between parts is a separator in many countries' addresses ("Bela Vista, São Paulo - SP").
    .replace(/[;\n\r|]+|\s+[-–]\s+/g, ',')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return segments.flatMap((s, seg) =>
    s
      .split(/\s+/)
      .filter(Boolean)
      .map((text) => ({ text, seg })),
  );
}

function joined(toks: Tok[]): string {
  return toks.map((t) => t.text).join(' ');
}

function lastSegment(toks: Tok[]): Tok[] {
  const seg = toks[toks.length - 1]?.seg;
  return toks.filter((t) => t.seg === seg);
}

interface CountryOption {
  country: string | null;
  rest: Tok[];
  areaNameAsLocality: boolean;
  /** The rest ends with words that name a country (kept for their reading as a region of that name). */
  namesCountry: boolean;
}

function countryOptions(tokens: Tok[], lex: AddressLexicon): CountryOption[] {
  // A country's name may itself hold a comma ("Saint Helena, Ascension and Tristan da Cunha").
  const whole = tokens.length > 1 && tokens[0]!.seg !== tokens[tokens.length - 1]!.seg ? lex.countryCodeByName(joined(tokens)) : undefined;
  if (whole) return [{ country: whole, rest: [], areaNameAsLocality: false, namesCountry: false }];
  const multilingual = countryInSeveralNames(tokens, lex);
  if (multilingual) return [{ country: multilingual, rest: [], areaNameAsLocality: false, namesCountry: false }];
  const tail = lastSegment(tokens);
  for (let k = Math.min(8, tail.length); k >= 1; k--) {
    const words = tokens.slice(-k);
    const phrase = joined(words).replace(/\.$/, '');
    const isCode = k === 1 && /^[A-Za-z]{2}$/.test(phrase);
    // Three letters are an ISO alpha-3 code when written in capitals, standing alone ("DEU", "egy") or in lower
    // case after other words ("bangkok tha", "quito ecu") unless they end a longer place name ("Cape Cod",
    // checked below).
    const lowerAlpha3 = k === 1 && /^[a-z]{3}$/.test(phrase) && tail.length > 1;
    const alpha3 =
      k === 1 && /^[A-Za-z]{3}$/.test(phrase) && (/^[A-Z]{3}$/.test(phrase) || tail.length === 1 || lowerAlpha3) ? lex.countryCodeByAlpha3(phrase) : undefined;
    // "UK" is a name, not an ISO code: two letters are tried as a code first, then as a name.
    const named = isCode && lex.isCountryCode(phrase) ? phrase.toUpperCase() : lex.countryCodeByName(phrase);
    // A three-letter word that is an ISO code is read as the code ("NGA" is Nigeria, though Vietnamese calls
    // Russia "Nga").
    const code = alpha3 ?? named;
    if (!code) continue;
    // "West Jordan", "New Mexico": the country's name ends a longer place or region name.
    if (longerNameEnds(tail, k, lex)) break;
    const rest = tokens.slice(0, -k);
    const options: CountryOption[] = [{ country: code, rest, areaNameAsLocality: false, namesCountry: false }];
    // The same word may be a region (IL, CA, Georgia). A country's name alone is the country, even where a
    // city or a region of the same country has the name ("Armenia", "Panama", "Djibouti", "Singapore": the
    // country's point is its capital anyway).
    if (lex.regions(phrase, isCode).length > 0) options.push({ country: null, rest: tokens, areaNameAsLocality: false, namesCountry: !isCode });
    return options;
  }
  const plain: CountryOption = { country: null, rest: tokens, areaNameAsLocality: false, namesCountry: false };
  const leading = leadingCountry(tokens, lex);
  // Words that name a region or town as well stay readable as it ("Georgia 30303" is Atlanta's ZIP, "Lebanon
  // 17042" Lebanon, PA's).
  if (leading) return leading.placeToo ? [leading.option, plain] : [leading.option];
  return [plain];
}

/**
 * "Germany 13353", "Deutschland, 10117 Berlin", "España 28014 Madrid": a country's name written first, before a
 * postal code, as some senders and some countries' own order have it. Only before a code: a name at the start
 * is otherwise mostly a street's or a person's ("Jordan Street", "Chad Smith"), and the code is what needs the
 * country to be read.
 */
function leadingCountry(tokens: Tok[], lex: AddressLexicon): { option: CountryOption; placeToo: boolean } | null {
  const first = tokens.filter((t) => t.seg === tokens[0]!.seg);
  for (let k = Math.min(4, first.length); k >= 1; k--) {
    const next = tokens[k];
    if (!next || !/^\d/.test(next.text)) continue;
    const phrase = joined(tokens.slice(0, k)).replace(/[.:]$/, '');
    const code = lex.countryCodeByName(phrase);
    if (code) {
      const option = { country: code, rest: tokens.slice(k), areaNameAsLocality: false, namesCountry: false };
      return { option, placeToo: lex.regions(phrase, false).length > 0 || lex.hasLocality(phrase, null, null) };
    }
  }
  return null;
}

const SCRIPTS = [
  'Latin',
  'Cyrillic',
  'Greek',
  'Arabic',
  'Hebrew',
  'Han',
  'Hiragana',
  'Katakana',
  'Hangul',
  'Devanagari',
  'Bengali',
  'Thai',
  'Lao',
  'Khmer',
  'Myanmar',
  'Ethiopic',
  'Mongolian',
  'Georgian',
  'Armenian',
  'Tibetan',
  'Thaana',
  'Sinhala',
  'Tamil',
].map((name) => [name, new RegExp(`\\p{Script=${name}}`, 'u')] as const);

function scriptOf(word: string): string {
  return SCRIPTS.find(([, re]) => re.test(word))?.[0] ?? 'other';
}

/**
 * A label that gives one country's name in several languages ("Schweiz/Suisse/Svizzera", "Djibouti جيبوتي",
 * "ኤርትራ Eritrea إرتريا"): names separated by slashes or by a change of script. The country, when some of
 * them name it, none names another country, and the rest name no place or region ("Москва Russia" is Moscow).
 */
function countryInSeveralNames(tokens: Tok[], lex: AddressLexicon): string | undefined {
  if (tokens.some((t) => t.seg !== tokens[0]!.seg || /\d/.test(t.text))) return undefined;
  const names: string[] = [];
  let script = '';
  for (const token of tokens) {
    const parts = token.text.split(/(?<=\p{L})\/(?=\p{L})/u);
    for (const [i, part] of parts.entries()) {
      const partScript = scriptOf(part);
      if (i === 0 && partScript === script && names.length > 0) names[names.length - 1] += ` ${part}`;
      else names.push(part);
      script = partScript;
    }
  }
  if (names.length < 2) return undefined;
  const codes = names.map((n) => lex.countryCodeByName(n));
  const code = codes.find((c) => c !== undefined);
  if (!code || codes.some((c) => c !== undefined && c !== code)) return undefined;
  const unknown = names.filter((_, i) => codes[i] === undefined);
  return unknown.every((n) => lex.regions(n, false).length === 0 && !lex.hasLocality(n, null, null)) ? code : undefined;
}

interface PostalPart {
  rest: Tok[];
  postalCode: string | null;
  zip5: string | null;
  impliedCountry: string | null;
}

function trailingPostal(tokens: Tok[], country: string | null): PostalPart {
  const none: PostalPart = { rest: tokens, postalCode: null, zip5: null, impliedCountry: null };
  if (tokens.length < 2 && country === null) {
    // A lone token is a ZIP only if it has the form ("94043"); anything else is a place name.
    const only = tokens[0];
    if (!only) return none;
    const m = US_ZIP.exec(only.text);
    if (m) return { rest: [], postalCode: only.text, zip5: m[1]!, impliedCountry: null };
    // UK and Canadian postcodes are often typed without their space ("SW1A2AA", "M5V3L9").
    if (UK_POSTCODE.test(only.text) && /\d/.test(only.text))
      return { rest: [], postalCode: spacedPostcode(only.text, 3), zip5: null, impliedCountry: ukFormCountry(only.text) };
    if (CA_POSTCODE.test(only.text)) return { rest: [], postalCode: spacedPostcode(only.text, 3), zip5: null, impliedCountry: 'CA' };
    if (CA_FSA.test(only.text)) return { rest: [], postalCode: only.text, zip5: null, impliedCountry: 'CA' };
    if (UK_OUTWARD_CODE.test(only.text)) return { rest: [], postalCode: only.text, zip5: null, impliedCountry: ukFormCountry(only.text) };
    const form = postcodeForm(only.text);
    if (form) return { rest: [], postalCode: form.postalCode, zip5: null, impliedCountry: form.country };
    // "2000", "0150": four or six digits alone are a postal code (of a country the postal tables may know).
    if (NUMERIC_POSTCODE.test(only.text)) return { rest: [], postalCode: only.text, zip5: null, impliedCountry: null };
    return none;
  }
  const last = tokens[tokens.length - 1];
  if (!last) return none;
  const lastTwo = tokens.length >= 2 && tokens[tokens.length - 2]!.seg === last.seg ? `${tokens[tokens.length - 2]!.text} ${last.text}` : null;
  if (country === null || country === 'US') {
    const m = US_ZIP.exec(last.text);
    if (m) return { rest: tokens.slice(0, -1), postalCode: last.text, zip5: m[1]!, impliedCountry: null };
  }
  if (country === null || UK_FORM_COUNTRIES.has(country)) {
    if (lastTwo && UK_POSTCODE.test(lastTwo))
      return { rest: tokens.slice(0, -2), postalCode: lastTwo.toUpperCase(), zip5: null, impliedCountry: ukFormCountry(lastTwo) };
    if (UK_POSTCODE.test(last.text) && /\d[A-Z]{2}$/i.test(last.text) && /[A-Z]/i.test(last.text[0]!)) {
      return { rest: tokens.slice(0, -1), postalCode: spacedPostcode(last.text, 3), zip5: null, impliedCountry: ukFormCountry(last.text) };
    }
  }
  if (country === null || country === 'CA') {
    if (lastTwo && CA_POSTCODE.test(lastTwo)) return { rest: tokens.slice(0, -2), postalCode: lastTwo.toUpperCase(), zip5: null, impliedCountry: 'CA' };
    if (CA_POSTCODE.test(last.text)) return { rest: tokens.slice(0, -1), postalCode: spacedPostcode(last.text, 3), zip5: null, impliedCountry: 'CA' };
  }
  // "T0A, Canada", "SW1A, UK": the first half of a postcode alone beside its country is that code.
  if (tokens.length === 1 && country === 'CA' && CA_FSA.test(last.text)) return { rest: [], postalCode: last.text, zip5: null, impliedCountry: 'CA' };
  if (tokens.length === 1 && country === 'GB' && UK_OUTWARD_CODE.test(last.text)) return { rest: [], postalCode: last.text, zip5: null, impliedCountry: 'GB' };
  // "Toronto M5V", "London SW1A", "Manchester M1": the first half of a postcode after a town, in capitals.
  const before = tokens[tokens.length - 2];
  if (before && !/\d/.test(before.text) && !UNIT_WORDS.has(foldText(before.text).replace(/\.$/, ''))) {
    if (CA_FSA.test(last.text) && (country === null || country === 'CA'))
      return { rest: tokens.slice(0, -1), postalCode: last.text, zip5: null, impliedCountry: 'CA' };
    if (UK_OUTWARD_CODE.test(last.text) && (country === null || country === 'GB')) {
      return { rest: tokens.slice(0, -1), postalCode: last.text, zip5: null, impliedCountry: 'GB' };
    }
  }
  for (const [text, count] of [
    [lastTwo, 2],
    [last.text, 1],
  ] as const) {
    const form = text ? postcodeForm(text) : null;
    if (form && (country === null || country === form.country)) {
      return { rest: tokens.slice(0, -count), postalCode: form.postalCode, zip5: null, impliedCountry: form.country };
    }
  }
  // "Sydney NSW 2000", "Mumbai 400001": four or six digits at the end (five are tried as a US ZIP first).
  // "80331, Germany": the country named, the digits alone are its postal code.
  if (country !== 'US' && NUMERIC_POSTCODE.test(last.text) && (tokens.length >= 2 || country !== null)) {
    return { rest: tokens.slice(0, -1), postalCode: last.text, zip5: null, impliedCountry: null };
  }
  return none;
}

/** A UK or Canadian postcode in its usual written form: capitals, a space before the last `inward` characters. */
function spacedPostcode(text: string, inward: number): string {
  const compact = text.replace(/\s+/g, '').toUpperCase();
  return `${compact.slice(0, -inward)} ${compact.slice(-inward)}`;
}

interface RegionOption {
  region: Subdivision | null;
  rest: Tok[];
  areaNameAsLocality: boolean;
  /** With `areaNameAsLocality`: how many words at the end of the segment are the city's name (the rest of the
   * segment is its district: "Siddikbazar Dhaka"); null when the name fills the segment. */
  cityWords?: number;
}

function regionOptions(tokens: Tok[], country: string | null, lex: AddressLexicon, mayBeCity: boolean): RegionOption[] {
  const tail = lastSegment(tokens);
  for (let k = Math.min(4, tail.length); k >= 1; k--) {
    const words = tokens.slice(-k);
    const phrase = joined(words).replace(/\.$/, '');
    // A bare code counts when it stands apart ("Paris, TX") or is written in capitals ("Paris TX").
    const codeAllowed = k === 1 && (tail.length === 1 || /^[A-Z]{2,3}$/.test(phrase.replace(/\./g, '')));
    const found = lex.regions(phrase, codeAllowed, country).filter((s) => country === null || s.country === country);
    if (found.length === 0) continue;
    if (longerNameEnds(tail, k, lex)) break;
    const rest = tokens.slice(0, -k);
    const options: RegionOption[] = found.map((region) => ({ region, rest, areaNameAsLocality: false }));
    // "New York", "Washington", "10119 Berlin": the region's name fills its part of the address (numbers such as
    // a postal code aside), so it may mean the city of that name.
    const sameSegment = tail.slice(0, tail.length - k);
    const fillsSegment = sameSegment.every((t) => /^\d/.test(t.text));
    if (mayBeCity && fillsSegment && lex.regions(phrase, false).length > 0) options.push({ region: null, rest: tokens, areaNameAsLocality: true });
    // "Chapinero Bogota", "Catete Rio de Janeiro": a district's name before a city named like its region, with
    // no comma between: the city, with the district beside it (read as a city only where one that big exists).
    else if (mayBeCity && sameSegment.length > 0 && !sameSegment.some((t) => /\d/.test(t.text)) && lex.regions(phrase, false).length > 0)
      options.push({ region: null, rest: tokens, areaNameAsLocality: true, cityWords: fewestWordsNaming(tokens, k, found, lex) });
    return options;
  }
  return [{ region: null, rest: tokens, areaNameAsLocality: false }];
}

/**
 * How many of the last `k` tokens are the region's name: the fewest that still name one of the `found` regions
 * or a town in it. "Old City Nablus" names Nablus by its last word; read whole, its last two ("City Nablus", a
 * kind word and a name) would leave the district "Old" and the city "City Nablus", which no town is called.
 */
function fewestWordsNaming(tokens: Tok[], k: number, found: Subdivision[], lex: AddressLexicon): number {
  for (let j = 1; j < k; j++) {
    const phrase = joined(tokens.slice(-j));
    // (A second-level unit is known by its name only where no town has it, so the town in the region counts too.)
    const named = lex.regions(phrase, false);
    if (found.some((f) => named.some((s) => f.country === s.country && f.admin1 === s.admin1) || lex.hasLocality(phrase, f.country, f.admin1))) return j;
  }
  return k;
}

/** Whether the last `k` tokens of a segment are only the end of a longer place or region name in it. */
function longerNameEnds(segment: Tok[], k: number, lex: AddressLexicon): boolean {
  for (let j = Math.min(segment.length, 5); j > k; j--) {
    const words = segment.slice(-j);
    if (/^\d/.test(words[0]!.text)) continue;
    const phrase = joined(words);
    if (lex.regions(phrase, false).length > 0 || lex.hasLocality(phrase, null, null)) return true;
  }
  return false;
}

interface Known {
  country: string | null;
  region: Subdivision | null;
  postalCode: string | null;
  zip5: string | null;
  areaNameAsLocality: boolean;
  cityWords?: number | null;
}

/**
 * The reading with the last part as the place, then, for addresses of three or more parts, readings with
 * an earlier part as the place ("Stocks Ln, Knutsford, Cheshire East WA16 9EX": a county ends it).
 */
function readPlaceAndStreet(tokens: Tok[], known: Known, lex: AddressLexicon): AddressReading[] {
  const first = readPlaceAt(tokens, known, lex, null);
  const segs = groupBySegment(tokens);
  const out = [first];
  for (let i = segs.length - 2; i >= 1 && i >= segs.length - 3; i--) out.push(readPlaceAt(tokens, known, lex, i));
  // "Fenstanton, Huntingdonshire": of two parts, the last may be an area the data does not know (a district or
  // county by its bare name) after the town: the first part, when it is a known town and no street, with the last
  // unused (and the answer's confidence lowered for it).
  const country = known.country ?? known.region?.country ?? null;
  const admin1 = known.region?.admin1 ?? null;
  const [head, tail] = segs;
  if (
    segs.length === 2 &&
    !head!.some((t) => /\d/.test(t.text)) &&
    !hasStreetWord(head!) &&
    lex.hasLocality(joined(head!), country, admin1) &&
    // Nothing else the last part could be: no town, region or country ("Austin, Texas" is read with its state).
    !lex.hasLocality(joined(tail!), null, null) &&
    lex.regions(joined(tail!), true).length === 0 &&
    lex.countryCodeByName(joined(tail!)) === undefined
  )
    out.push({ ...readPlaceAt(tokens, known, lex, 0), lastPartUnknown: true });
  // "36120 Suinula", "63430 Kätkänjoki": with no country written, a code's digits and then words with no
  // street word and no number may be a code and a town the data does not know (a postal table may), as much
  // as a house number and its street; both are read, and the resolver keeps the one that matches.
  if (segs.length === 1 && known.country === null && known.region === null && codeThenWords(tokens)) out.push(readPlaceAt(tokens, known, lex, null, true));
  return out.flatMap((r) => {
    const split = withDistrictSplit(r, lex);
    return split ? [r, split] : [r];
  });
}

/** A district's number after its town ("Paris 8e", "Lyon 3", "Praha 2"): arrondissements and numbered districts. */
const DISTRICT_NUMBER = /^\d{1,2}(e|er|re|eme|ème|ᵉ|st|nd|rd|th)?\.?$/i;

/**
 * A place part that is no known place but joins a town and its district without a comma ("Westminster London",
 * "München Schwabing", "Köln-Ehrenfeld", "Paris 8e"): the reading with the town as the locality and the
 * district as a leftover part, which the resolver takes as the town's district when the data places it
 * there (otherwise it is reported as not used). The town must be a known place; the whole must not be.
 */
function withDistrictSplit(r: AddressReading, lex: AddressLexicon): AddressReading | null {
  if (!r.locality || r.areaNameAsLocality) return null;
  const country = r.country ?? r.region?.country ?? null;
  const admin1 = r.region?.admin1 ?? null;
  const known = (name: string) => lex.hasLocality(name, country, admin1);
  if (known(r.locality)) return null;
  // A hyphen joins a town and its district, the town first, in German and Czech usage ("Berlin-Kreuzberg",
  // "Frankfurt-Höchst"); without one the district usually comes first ("Westminster London").
  const hyphened = !/\s/.test(r.locality.trim());
  const words = r.locality.split(/\s+|(?<=\p{L})-(?=\p{L})/u).filter(Boolean);
  // "Dallas County", "Co. Cork": an area's kind and name, read past as a whole elsewhere.
  if (words.length < 2 || words.some((w) => AREA_KIND_WORDS.has(wordKey(w)))) return null;
  const split = (town: string[], district: string[]): AddressReading => ({
    ...r,
    locality: town.join(' '),
    leftovers: [district.join(' '), ...r.leftovers],
    splitDistrict: district.join(' '),
  });
  const last = words[words.length - 1]!;
  if (DISTRICT_NUMBER.test(last) && known(words.slice(0, -1).join(' '))) return split(words.slice(0, -1), [last]);
  if (words.some((w) => /\d/.test(w))) return null;
  // The longest known town: its name at the end ("Westminster London"), then at the start ("München Schwabing").
  // A town of one or two letters is not read out of longer words: such words are mostly articles and particles
  // ("Al Dajeej Farwaniya" is no district of Ål, Norway; "La", "El", "De").
  const town = (ws: string[]) => ws.join('').replace(/[^\p{L}]/gu, '').length > 2 && known(ws.join(' '));
  for (let k = words.length - 1; k >= 1; k--) {
    if (!hyphened && town(words.slice(-k))) return split(words.slice(-k), words.slice(0, -k));
    // Not a short word after the town: that is a country's or region's code ("Victoria sc", read as such).
    if (town(words.slice(0, k)) && (hyphened || words.slice(k).join('').length > 3)) return split(words.slice(0, k), words.slice(k));
  }
  return null;
}

/** `codeFirst`: a comma-less part that opens with a code's digits is read as the code and a town (codeThenWords). */
function readPlaceAt(tokens: Tok[], known: Known, lex: AddressLexicon, placeSegment: number | null, codeFirst = false): AddressReading {
  const reading: AddressReading = {
    houseNumber: null,
    street: null,
    unit: null,
    postalCode: known.postalCode,
    zip5: known.zip5,
    locality: null,
    region: known.region,
    country: known.country,
    areaNameAsLocality: known.areaNameAsLocality,
    leftovers: [],
  };
  if (placeSegment !== null) reading.townBeforeEnd = true;
  if (tokens.length === 0) return reading;
  const segs = groupBySegment(tokens);
  let placeToks: Tok[] = [];
  let streetToks: Tok[] = [];
  let townAtEnd = false;
  if (segs.length >= 2) {
    const at = placeSegment ?? segs.length - 1;
    placeToks = segs[at]!;
    // (The first part read as the town leaves no street.)
    streetToks = at === 0 ? [] : segs[0]!;
    for (const [i, other] of segs.entries()) if (i !== at && (i !== 0 || at === 0)) reading.leftovers.push(joined(other));
    // "Yared Street, Beherawi Addis Ababa": the district before the city named like its region.
    const cityWords = known.areaNameAsLocality && placeSegment === null ? known.cityWords : null;
    if (cityWords && placeToks.length > cityWords) {
      reading.leftovers.push(joined(placeToks.slice(0, -cityWords)));
      placeToks = placeToks.slice(-cityWords);
    }
  } else {
    const only = segs[0]!;
    // A region or country name read as a city is the whole name ("British Columbia", not "Columbia").
    const split = known.areaNameAsLocality ? (known.cityWords ?? only.length) : localitySuffix(only, known, lex);
    if (split !== null) {
      placeToks = only.slice(only.length - split);
      streetToks = only.slice(0, only.length - split);
      townAtEnd = !known.areaNameAsLocality;
    } else if (townAndDistrictNumber(only, known, lex)) {
      placeToks = only;
    } else if (codeBeforeUnknownTown(only, known) || (codeFirst && codeThenWords(only))) {
      // Read as the code and the town below (the numbers before a place are moved out of it).
      placeToks = only;
    } else if (HOUSE_NUMBER.test(only[0]!.text) || hasStreetWord(only) || only.some((t) => /\d/.test(t.text))) {
      // A house number, a street word, or numbers anywhere ("Cra 18#63-64 B Chapinero"): no town's name.
      streetToks = only;
    } else {
      placeToks = only;
    }
  }
  if (known.areaNameAsLocality && known.cityWords && placeSegment === null) placeToks = withoutRegionKind(placeToks, known, lex);
  // "75008 Paris", "10117 Berlin": a postal code written before the city; "Calle de Alarcón, 23 28014 Madrid":
  // the street's house number before it; "2 Kingston": a postal district.
  let numberBeforePlace: string | null = null;
  // "1012 LG Amsterdam": a postal code of a distinctive form before the city.
  for (const count of [2, 1]) {
    const form = placeToks.length > count && reading.postalCode === null ? postcodeForm(joined(placeToks.slice(0, count))) : null;
    if (form && (reading.country ?? form.country) === form.country) {
      reading.postalCode = form.postalCode;
      reading.country = form.country;
      placeToks = placeToks.slice(count);
      break;
    }
  }
  while (placeToks.length >= 1 && /^\d+$/.test(placeToks[0]!.text) && (placeSegment !== null || segs.length >= 2 || placeToks.length >= 2)) {
    const text = placeToks[0]!.text;
    if (NUMERIC_POSTCODE.test(text) && reading.postalCode === null) postalCodeBeforeTown(reading, text);
    else if (text.length <= 3 && numberBeforePlace === null) numberBeforePlace = text;
    else break;
    placeToks = placeToks.slice(1);
  }
  if (placeToks.length > 0) reading.locality = joined(placeToks);
  readStreet(streetToks, reading);
  // "Pristina kos", "Bab Tajura Tripoli": the words before a town read off the end of the only part, when they
  // are no street, are a district by their position only, as when the whole part names no place
  // (withDistrictSplit): the town is doubtful unless the data places them beside it.
  if (townAtEnd && streetToks.length > 0 && reading.leftovers[0] === joined(streetToks)) reading.splitDistrict = joined(streetToks);
  if (numberBeforePlace !== null) {
    if (reading.street !== null && reading.houseNumber === null) reading.houseNumber = numberBeforePlace;
    else reading.leftovers.push(numberBeforePlace);
  }
  return reading;
}

/**
 * A postal code written before the town ("75008 Paris"). Five digits there are a US ZIP as much as after it
 * ("17608 Lancaster", "44120 Cleveland, OH") where no other country is written, so the ZIP can say which town of
 * the name is meant; the resolver reads them as another country's code when the town is not near the ZIP
 * ("10117 Berlin"), as it does for "Berlin 10117".
 */
function postalCodeBeforeTown(reading: AddressReading, code: string): void {
  reading.postalCode = code;
  const written = reading.country ?? reading.region?.country ?? null;
  if (US_ZIP.test(code) && (written === null || written === 'US')) reading.zip5 = code;
}

/**
 * "89275 Elchingen, Germany", "10140 Amance, France": in a country other than the US, a postal code's digits
 * and then words with no street word and no number are the code and a town, even one the data does not know
 * (the postal table may: its region is then answered), rather than a house number and its street.
 */
function codeBeforeUnknownTown(toks: Tok[], known: Known): boolean {
  const country = known.country ?? known.region?.country ?? null;
  return country !== null && country !== 'US' && codeThenWords(toks);
}

/** A postal code's digits, then words with no street word and no number. */
function codeThenWords(toks: Tok[]): boolean {
  if (toks.length < 2 || !NUMERIC_POSTCODE.test(toks[0]!.text)) return false;
  const rest = toks.slice(1);
  return !rest.some((t) => /\d/.test(t.text)) && !hasStreetWord(rest);
}

/** "Paris 8e", "Praha 2": a known town and a district's number, not a street with its house number. */
function townAndDistrictNumber(toks: Tok[], known: Known, lex: AddressLexicon): boolean {
  if (toks.length < 2 || !DISTRICT_NUMBER.test(toks[toks.length - 1]!.text) || toks.slice(0, -1).some((t) => /\d/.test(t.text))) return false;
  return lex.hasLocality(joined(toks.slice(0, -1)), known.country ?? known.region?.country ?? null, known.region?.admin1 ?? null);
}

/** "Lusaka Province", "Bamako District" read as a city: the region's name is its capital's and the kind of area. */
function withoutRegionKind(toks: Tok[], known: Known, lex: AddressLexicon): Tok[] {
  const country = known.country ?? null;
  const kind = toks.length > 1 ? foldText(toks[toks.length - 1]!.text) : '';
  if (!REGION_KIND_WORDS.has(kind) || lex.hasLocality(joined(toks), country, null)) return toks;
  return lex.hasLocality(joined(toks.slice(0, -1)), country, null) ? toks.slice(0, -1) : toks;
}

/** How many trailing tokens of a comma-less segment name a known place, preferring the longest. */
function localitySuffix(toks: Tok[], known: Known, lex: AddressLexicon): number | null {
  for (let k = Math.min(6, toks.length); k >= 1; k--) {
    if (k === toks.length && toks.length > 1 && HOUSE_NUMBER.test(toks[0]!.text)) continue;
    if (k < toks.length && /^\d/.test(toks[toks.length - k]!.text)) continue;
    // "10 Downing Street", "Baker Street": a street's kind word after its name ends the street; it is no town
    // (Street, Somerset) however well the data knows one by that word.
    if (k === 1 && toks.length > 1 && STREET_WORDS.has(wordKey(toks[toks.length - 1]!.text))) continue;
    if (lex.hasLocality(joined(toks.slice(-k)), known.country ?? known.region?.country ?? null, known.region?.admin1 ?? null)) return k;
  }
  return null;
}

function readStreet(toks: Tok[], reading: AddressReading): void {
  let words = toks.map((t) => t.text);
  if (words.length === 0) return;
  const unitAt = words.findIndex((w, i) => i > 0 && (w.startsWith('#') || UNIT_WORDS.has(foldText(w).replace(/\.$/, ''))));
  if (unitAt > 0) {
    const unitLength = words[unitAt]!.startsWith('#') && words[unitAt]!.length > 1 ? 1 : 2;
    reading.unit = words.slice(unitAt, unitAt + unitLength).join(' ');
    words = [...words.slice(0, unitAt), ...words.slice(unitAt + unitLength)];
  }
  if (words.length === 1 && NUMERIC_POSTCODE.test(words[0]!) && reading.postalCode === null) {
    postalCodeBeforeTown(reading, words[0]!);
    return;
  }
  const form = reading.postalCode === null && words.length <= 2 ? postcodeForm(words.join(' ')) : null;
  if (form && (reading.country ?? form.country) === form.country) {
    reading.postalCode = form.postalCode;
    reading.country = form.country;
    return;
  }
  const first = words[0]!;
  const last = words[words.length - 1]!;
  const asToks = (ws: string[]) => ws.map((text) => ({ text, seg: 0 }));
  if (words.length >= 2 && HOUSE_NUMBER.test(first)) {
    reading.houseNumber = first;
    reading.street = words.slice(1).join(' ');
  } else if (words.length >= 2 && HOUSE_NUMBER.test(last) && hasStreetWord(asToks(words.slice(0, -1)))) {
    reading.houseNumber = last;
    reading.street = words.slice(0, -1).join(' ');
  } else if (hasStreetWord(asToks(words)) || words.some((w) => /\d/.test(w))) {
    // A street word, or numbers in it ("Cra 18#63-64 B"): street material, not a building's name.
    reading.street = words.join(' ');
  } else {
    reading.leftovers.unshift(words.join(' '));
  }
}

/** A word as the word lists hold it: folded to ASCII lower case, letters only ("St." → "st"). */
function wordKey(text: string): string {
  return foldText(text).replace(/[^a-z]/g, '');
}

function hasStreetWord(toks: Tok[]): boolean {
  return toks.some((t) => {
    const w = wordKey(t.text);
    return STREET_WORDS.has(w) || STREET_SUFFIXES.some((s) => w.length > s.length + 2 && w.endsWith(s));
  });
}

function groupBySegment(toks: Tok[]): Tok[][] {
  const out: Tok[][] = [];
  for (const t of toks) {
    const last = out[out.length - 1];
    if (last && last[0]!.seg === t.seg) last.push(t);
    else out.push([t]);
  }
  return out;
}

function dedupe(readings: AddressReading[]): AddressReading[] {
  const seen = new Set<string>();
  return readings.filter((r) => {
    const key = JSON.stringify([
      r.houseNumber,
      r.street,
      r.postalCode,
      r.locality,
      r.region?.country,
      r.region?.admin1,
      r.country,
      r.areaNameAsLocality,
      r.leftovers,
    ]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
