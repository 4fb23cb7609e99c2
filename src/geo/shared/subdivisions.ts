// First-level subdivisions we can name exactly: US states and territories, Canadian provinces, Australian
// states and the UK's countries. `code` is the ISO 3166-2 code without the country prefix ("CA" for
// US-CA); `admin1` is the GeoNames admin1 code the gazetteer carries for the same area; `aliases` are
// other exact spellings seen in the data (no fuzzy matching: a code is only given when it is certain).

export interface Subdivision {
  country: string;
  /** Null for regions known only from GeoNames admin1 (no ISO 3166-2 code shipped for them). */
  code: string | null;
  name: string;
  admin1: string;
  aliases?: readonly string[];
  /** ISO 3166-2 code (without the country) of a worldwide region, read only where its country is known
   * ("São Paulo - SP, Brazil"); `code` stays null for them. */
  iso?: string;
}

const us = (code: string, name: string, aliases?: string[]): Subdivision => ({ country: 'US', code, name, admin1: code, ...(aliases ? { aliases } : {}) });

export const SUBDIVISIONS: readonly Subdivision[] = [
  us('AL', 'Alabama'),
  us('AK', 'Alaska'),
  us('AZ', 'Arizona'),
  us('AR', 'Arkansas'),
  us('CA', 'California'),
  us('CO', 'Colorado'),
  us('CT', 'Connecticut'),
  us('DE', 'Delaware'),
  us('DC', 'District of Columbia', ['Washington DC', 'Washington D.C.']),
  us('FL', 'Florida'),
  us('GA', 'Georgia'),
  us('HI', 'Hawaii'),
  us('ID', 'Idaho'),
  us('IL', 'Illinois'),
  us('IN', 'Indiana'),
  us('IA', 'Iowa'),
  us('KS', 'Kansas'),
  us('KY', 'Kentucky'),
  us('LA', 'Louisiana'),
  us('ME', 'Maine'),
  us('MD', 'Maryland'),
  us('MA', 'Massachusetts'),
  us('MI', 'Michigan'),
  us('MN', 'Minnesota'),
  us('MS', 'Mississippi'),
  us('MO', 'Missouri'),
  us('MT', 'Montana'),
  us('NE', 'Nebraska'),
  us('NV', 'Nevada'),
  us('NH', 'New Hampshire'),
  us('NJ', 'New Jersey'),
  us('NM', 'New Mexico'),
  us('NY', 'New York'),
  us('NC', 'North Carolina'),
  us('ND', 'North Dakota'),
  us('OH', 'Ohio'),
  us('OK', 'Oklahoma'),
  us('OR', 'Oregon'),
  us('PA', 'Pennsylvania'),
  us('RI', 'Rhode Island'),
  us('SC', 'South Carolina'),
  us('SD', 'South Dakota'),
  us('TN', 'Tennessee'),
  us('TX', 'Texas'),
  us('UT', 'Utah'),
  us('VT', 'Vermont'),
  us('VA', 'Virginia'),
  us('WA', 'Washington'),
  us('WV', 'West Virginia'),
  us('WI', 'Wisconsin'),
  us('WY', 'Wyoming'),
  us('PR', 'Puerto Rico'),
  us('GU', 'Guam'),
  us('VI', 'U.S. Virgin Islands', ['US Virgin Islands', 'Virgin Islands']),
  us('AS', 'American Samoa'),
  us('MP', 'Northern Mariana Islands'),

  { country: 'CA', code: 'AB', name: 'Alberta', admin1: '01' },
  { country: 'CA', code: 'BC', name: 'British Columbia', admin1: '02' },
  { country: 'CA', code: 'MB', name: 'Manitoba', admin1: '03' },
  { country: 'CA', code: 'NB', name: 'New Brunswick', admin1: '04' },
  { country: 'CA', code: 'NL', name: 'Newfoundland and Labrador', admin1: '05' },
  { country: 'CA', code: 'NS', name: 'Nova Scotia', admin1: '07' },
  { country: 'CA', code: 'ON', name: 'Ontario', admin1: '08' },
  { country: 'CA', code: 'PE', name: 'Prince Edward Island', admin1: '09' },
  { country: 'CA', code: 'QC', name: 'Quebec', admin1: '10', aliases: ['Québec'] },
  { country: 'CA', code: 'SK', name: 'Saskatchewan', admin1: '11' },
  { country: 'CA', code: 'YT', name: 'Yukon', admin1: '12' },
  { country: 'CA', code: 'NT', name: 'Northwest Territories', admin1: '13' },
  { country: 'CA', code: 'NU', name: 'Nunavut', admin1: '14' },

  { country: 'AU', code: 'ACT', name: 'Australian Capital Territory', admin1: '01', aliases: ['ACT'] },
  { country: 'AU', code: 'NSW', name: 'New South Wales', admin1: '02' },
  { country: 'AU', code: 'NT', name: 'Northern Territory', admin1: '03' },
  { country: 'AU', code: 'QLD', name: 'Queensland', admin1: '04' },
  { country: 'AU', code: 'SA', name: 'South Australia', admin1: '05' },
  { country: 'AU', code: 'TAS', name: 'Tasmania', admin1: '06' },
  { country: 'AU', code: 'VIC', name: 'Victoria', admin1: '07' },
  { country: 'AU', code: 'WA', name: 'Western Australia', admin1: '08' },

  { country: 'GB', code: 'ENG', name: 'England', admin1: 'ENG' },
  { country: 'GB', code: 'NIR', name: 'Northern Ireland', admin1: 'NIR' },
  { country: 'GB', code: 'SCT', name: 'Scotland', admin1: 'SCT' },
  { country: 'GB', code: 'WLS', name: 'Wales', admin1: 'WLS' },
];

/** The conventional abbreviations of US state and Canadian province names used in running text and older
 * postal addressing (newspaper and government style: "Calif.", "Mass.", "Ont."), where they are not the
 * postal code itself. Added to the regions' aliases, so "Boston, Mass." reads as Massachusetts. */
const CONVENTIONAL_ABBREVIATIONS: Record<string, Record<string, string[]>> = {
  US: {
    AL: ['Ala.'],
    AZ: ['Ariz.'],
    AR: ['Ark.'],
    CA: ['Calif.', 'Cal.'],
    CO: ['Colo.'],
    CT: ['Conn.'],
    DE: ['Del.'],
    FL: ['Fla.'],
    IL: ['Ill.'],
    IN: ['Ind.'],
    KS: ['Kan.', 'Kans.'],
    MA: ['Mass.'],
    MI: ['Mich.'],
    MN: ['Minn.'],
    MS: ['Miss.'],
    MT: ['Mont.'],
    NE: ['Neb.', 'Nebr.'],
    NV: ['Nev.'],
    NM: ['N. Mex.', 'N.M.'],
    ND: ['N. Dak.', 'N.D.'],
    SD: ['S. Dak.', 'S.D.'],
    OK: ['Okla.'],
    OR: ['Ore.', 'Oreg.'],
    PA: ['Penn.', 'Penna.'],
    TN: ['Tenn.'],
    TX: ['Tex.'],
    VT: ['Vt.'],
    WA: ['Wash.'],
    WV: ['W. Va.', 'W.Va.'],
    WI: ['Wis.', 'Wisc.'],
    WY: ['Wyo.'],
  },
  CA: {
    AB: ['Alta.'],
    MB: ['Man.'],
    NL: ['Nfld.', 'Newfoundland'],
    NS: ['N.S.'],
    NB: ['N.B.'],
    ON: ['Ont.'],
    PE: ['P.E.I.'],
    QC: ['Que.', 'Qué.'],
    SK: ['Sask.'],
  },
};

for (const [i, s] of SUBDIVISIONS.entries()) {
  const extra = s.code ? CONVENTIONAL_ABBREVIATIONS[s.country]?.[s.code] : undefined;
  if (extra) (SUBDIVISIONS as Subdivision[])[i] = { ...s, aliases: [...(s.aliases ?? []), ...extra] };
}

const byCountryAndName = new Map<string, Subdivision>();
const byCountryAndCode = new Map<string, Subdivision>();
const byCountryAndAdmin1 = new Map<string, Subdivision>();
for (const s of SUBDIVISIONS) {
  for (const n of [s.name, ...(s.aliases ?? [])]) byCountryAndName.set(`${s.country}|${n.toLowerCase()}`, s);
  byCountryAndCode.set(`${s.country}|${s.code}`, s);
  byCountryAndAdmin1.set(`${s.country}|${s.admin1}`, s);
}

/** Exact (case-insensitive) name or alias within a country, e.g. ("US", "California"). */
export function subdivisionByName(country: string, name: string): Subdivision | undefined {
  return byCountryAndName.get(`${country}|${name.trim().toLowerCase()}`);
}

/** By ISO 3166-2 code without prefix, e.g. ("US", "CA"); also accepts "US-CA". */
export function subdivisionByCode(country: string, code: string): Subdivision | undefined {
  const c = code.trim().toUpperCase();
  return byCountryAndCode.get(`${country}|${c.startsWith(`${country}-`) ? c.slice(country.length + 1) : c}`);
}

/** By the GeoNames admin1 code the gazetteer uses, e.g. ("CA", "08") → Ontario. */
export function subdivisionByAdmin1(country: string, admin1: string): Subdivision | undefined {
  return byCountryAndAdmin1.get(`${country}|${admin1}`);
}

export function subdivisionsOf(country: string): Subdivision[] {
  return SUBDIVISIONS.filter((s) => s.country === country);
}
