// What a postal code's form alone says about where it is, for countries whose codes the embedded data has
// no table of. Canada: the first letter of a postal code names the province (Canada Post's forward
// sortation areas); X covers both Northwest Territories and Nunavut, answered as the former.

const CANADA_FIRST_LETTER: Record<string, string> = {
  A: 'NL',
  B: 'NS',
  C: 'PE',
  E: 'NB',
  G: 'QC',
  H: 'QC',
  J: 'QC',
  K: 'ON',
  L: 'ON',
  M: 'ON',
  N: 'ON',
  P: 'ON',
  R: 'MB',
  S: 'SK',
  T: 'AB',
  V: 'BC',
  X: 'NT',
  Y: 'YT',
};

/** ISO 3166-2 province code for a Canadian postal code, e.g. "M5V 3L9" → "ON". */
export function canadianProvinceOfPostcode(postcode: string): string | undefined {
  return CANADA_FIRST_LETTER[postcode.trim().charAt(0).toUpperCase()];
}
