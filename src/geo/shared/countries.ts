// Country names from the ICU data built into Node (Intl.DisplayNames, CLDR), so no table of names is
// shipped. English is the display name; names in the world's main languages (native names), the English
// variants and ISO alpha-3 codes of i18n-iso-countries (MIT), the names countries give themselves
// (countries-list, MIT) and a few everyday abbreviations are accepted
// when reading addresses ("Deutschland", "DEU", "Bosnia & Herzegovina", "USA", "UK").
import { createRequire } from 'node:module';
import { umlautsWrittenOut } from './text.js';

interface IsoCountries {
  alpha3ToAlpha2(code: string): string | undefined;
  getNames(lang: string, options: { select: 'all' }): Record<string, string[]>;
  langs(): string[];
}

let nativeList: Record<string, { native: string }> | null = null;
function nativeNames(): Record<string, { native: string }> {
  nativeList ??= (createRequire(import.meta.url)('countries-list') as { countries: Record<string, { native: string }> }).countries;
  return nativeList;
}

let isoCountries: IsoCountries | null = null;
function iso(): IsoCountries {
  // Loaded on first use: only address reading needs it.
  isoCountries ??= createRequire(import.meta.url)('i18n-iso-countries') as IsoCountries;
  return isoCountries;
}

/** ISO 3166-1 alpha-3 → alpha-2 ("DEU" → "DE"), undefined for an unknown code. */
export function alpha2FromAlpha3(code: string): string | undefined {
  return /^[A-Za-z]{3}$/.test(code) ? iso().alpha3ToAlpha2(code.toUpperCase()) : undefined;
}

const english = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
const nameCache = new Map<string, string | null>();

/** English name of an ISO 3166-1 alpha-2 code, or null when ICU does not know the code (e.g. "ZZ"). */
export function countryName(code: string | null | undefined): string | null {
  if (!code || !/^[A-Za-z]{2}$/.test(code)) return null;
  const upper = code.toUpperCase();
  let name = nameCache.get(upper);
  if (name === undefined) {
    let found: string | undefined;
    try {
      found = english.of(upper);
    } catch {
      found = undefined;
    }
    name = found && found !== upper && !/unknown/i.test(found) ? found : null;
    nameCache.set(upper, name);
  }
  return name;
}

/** Languages whose country names are also accepted in addresses. */
const READING_LOCALES = [
  'en',
  'fr',
  'de',
  'es',
  'it',
  'pt',
  'nl',
  'sv',
  'pl',
  'da',
  'nb',
  'fi',
  'cs',
  'sk',
  'hu',
  'ro',
  'hr',
  'sr',
  'sl',
  'bs',
  'bg',
  'el',
  'tr',
  'ru',
  'uk',
  'be',
  'lt',
  'lv',
  'et',
  'sq',
  'mk',
  'ka',
  'hy',
  'az',
  'kk',
  'uz',
  'ar',
  'he',
  'fa',
  'ur',
  'hi',
  'bn',
  'ta',
  'ne',
  'si',
  'th',
  'vi',
  'id',
  'ms',
  'fil',
  'zh',
  'ja',
  'ko',
  'km',
  'lo',
  'my',
  'mn',
  'am',
  'sw',
  'so',
  'ha',
  'yo',
  'zu',
  'af',
  'is',
  'ga',
  'mt',
  'ca',
  'eu',
  'gl',
];

/** Everyday names ICU does not list, mapped to codes (our own list). */
const EXTRA_NAMES: Record<string, string> = {
  USA: 'US',
  'U.S.A.': 'US',
  'U.S.': 'US',
  'United States of America': 'US',
  America: 'US',
  UK: 'GB',
  'U.K.': 'GB',
  'Great Britain': 'GB',
  Britain: 'GB',
  UAE: 'AE',
  'Republic of Korea': 'KR',
  Korea: 'KR',
  'Czech Republic': 'CZ',
  Holland: 'NL',
  Russia: 'RU',
  'Ivory Coast': 'CI',
  Burma: 'MM',
  Macedonia: 'MK',
  Swaziland: 'SZ',
  'Democratic Republic of the Congo': 'CD',
  'Republic of the Congo': 'CG',
  'Vatican City': 'VA',
  'East Timor': 'TL',
};

/**
 * Name (any accepted language, case- and accent-insensitive via `normalise`) → code, for the given codes.
 * Built once by the gazetteer from the countries its data covers.
 */
export function countryNameIndex(codes: Iterable<string>, normalise: (s: string) => string): Map<string, string> {
  const index = new Map<string, string>();
  // "Congo - Kinshasa", "Myanmar (Burma)": the part before the qualifier is accepted too, but only where no
  // country is called exactly that ("Congo" is the ISO short name of the Republic of the Congo).
  const shortForms = new Map<string, string>();
  const add = (name: string | undefined, code: string): void => {
    if (!name) return;
    const writtenOut = umlautsWrittenOut(name);
    if (writtenOut) add(writtenOut, code);
    const key = normalise(name);
    if (key && !index.has(key)) index.set(key, code);
    const short = normalise(name.replace(/\s*(\(.*\)|-\s.*)$/, ''));
    if (short && short !== key && !shortForms.has(short)) shortForms.set(short, code);
  };
  const codeList = [...codes];
  const codeSet = new Set(codeList);
  for (const locale of READING_LOCALES) {
    const names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
    for (const code of codeList) add(displayName(names, code), code);
  }
  const isoNames = (lang: string) => Object.entries(iso().getNames(lang, { select: 'all' }));
  // English variants first, so that a name another language gives to another country cannot take them.
  for (const [code, names] of isoNames('en')) if (codeSet.has(code)) for (const n of names) if (n.length > 3) add(n, code);
  // Each country's name in its own language ("Føroyar", "Kalaallit Nunaat", "Madagasikara", "Lëtzebuerg").
  for (const [locale, code] of nativeLocales())
    if (codeSet.has(code)) add(displayName(new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' }), code), code);
  // The name a country gives itself where it differs from CLDR's in its main language ("Shqipëria",
  // "ประเทศไทย", "臺灣", "Papua Niugini"), from countries-list (MIT).
  for (const [code, country] of Object.entries(nativeNames())) if (codeSet.has(code)) add(country.native, code);
  for (const lang of iso()
    .langs()
    .filter((l) => l !== 'en')) {
    for (const [code, names] of isoNames(lang)) if (codeSet.has(code)) for (const n of names) if (n.length > 3) add(n, code);
  }
  for (const [short, code] of shortForms) if (!index.has(short)) index.set(short, code);
  for (const [name, code] of Object.entries(EXTRA_NAMES)) index.set(normalise(name), code);
  return index;
}

function displayName(names: Intl.DisplayNames, code: string): string | undefined {
  try {
    return names.of(code);
  } catch {
    // an unknown code in this locale: nothing to add
    return undefined;
  }
}

/** Every language ICU has data for, with the country where it is most likely spoken (CLDR likely subtags):
 * [locale, country code] pairs, e.g. ["fo", "FO"], ["lb", "LU"]. */
function nativeLocales(): [string, string][] {
  const candidates: string[] = [];
  for (let a = 97; a <= 122; a++) for (let b = 97; b <= 122; b++) candidates.push(String.fromCharCode(a, b));
  const out = new Map<string, string>();
  for (const locale of Intl.DisplayNames.supportedLocalesOf(candidates)) {
    const region = new Intl.Locale(locale).maximize().region;
    if (region) out.set(locale, region);
  }
  return [...out];
}

let allCodes: string[] | null = null;

/** Codes ICU names that are not countries or territories (unions, pseudo-locales). */
const NOT_COUNTRIES = new Set(['EU', 'EZ', 'UN', 'QO', 'XA', 'XB', 'ZZ']);

/** Every ISO 3166-1 alpha-2 code ICU can name (territories included). */
export function allCountryCodes(): string[] {
  if (!allCodes) {
    const codes: string[] = [];
    for (let a = 65; a <= 90; a++) {
      for (let b = 65; b <= 90; b++) {
        const code = String.fromCharCode(a, b);
        if (!NOT_COUNTRIES.has(code) && countryName(code)) codes.push(code);
      }
    }
    allCodes = codes;
  }
  return allCodes;
}

let englishIndex: Map<string, string> | null = null;

/** Code for an English (or other accepted-language) country name, e.g. from a remote geocoder's answer. */
export function countryCodeFromName(name: string, normalise: (s: string) => string): string | null {
  englishIndex ??= countryNameIndex(allCountryCodes(), normalise);
  return englishIndex.get(normalise(name)) ?? null;
}
