// geo.locate's confidence: how far the returned point can be trusted to stand for the input. It starts
// from the precision level reached and is multiplied down by what weakens the match. docs/location.md
// documents these numbers; change them there too.

export type Precision = 'address' | 'street' | 'postal_code' | 'locality' | 'region' | 'country';

export const PRECISION_RANK: Record<Precision, number> = { address: 6, street: 5, postal_code: 4, locality: 3, region: 2, country: 1 };

/** Starting confidence of an embedded answer at each level (the embedded data never reaches street or address). */
export const LEVEL_CONFIDENCE: Record<Precision, number> = {
  address: 0.95,
  street: 0.9,
  postal_code: 0.9,
  locality: 0.8,
  region: 0.7,
  country: 0.8,
};

export const FACTOR = {
  /** The ZIP lies in another state than the one written, and the city does not settle it. */
  zipStateContradiction: 0.5,
  /** The ZIP's city is neither the city written nor within ZIP_CITY_KM of a place of that name. */
  zipCityContradiction: 0.6,
  /** The city and state agree with each other but not with the ZIP: the city wins. */
  cityOverridesZip: 0.6,
  /** A part was given but not found (a ZIP not in the data, an unknown city): the answer is coarser. */
  unmatchedPart: 0.85,
  /** A part that is neither street, city, region nor country (a building or business name), per part, at most two. */
  leftover: 0.9,
  /** A street address answered at postal-code level or coarser. */
  coarserThanAsked: 0.8,
  /** A name that is also a region or country ("New York", "Washington") was read as the city. */
  areaNameReadAsCity: 0.8,
  /** A second-level unit the data has no place in, placed at the point of the region it lies in ("Benguet"). */
  placedInContainingRegion: 0.8,
  /** The words also name another area at another level ("Georgia": the US state, or the country). */
  otherMeaning: 0.8,
  /** A street address whose town or district the data does not know, answered at its region's largest town:
   * the likeliest place for it, but a guess (on top of the unknown part's factor). */
  regionsLargestTown: 0.6,
  /** A full postal code answered at the centroid of its district (a Canadian forward sortation area). */
  postalDistrict: 0.9,
  /** A postal code whose form names its country, with no table of that country's codes (a Dutch "1012 AB"):
   * answered for the whole country, while the code stood for a street, so the answer is mostly not what was meant. */
  postalCodeOnlyCountry: 0.5,
  /** A UK postcode with no town, answered at the post town its postcode area is named after: the area's
   * main town, where much of its mail goes, but an area spans tens of kilometres (TR is all of Cornwall). */
  postcodeAreaTown: 0.6,
  /** A postal code answered at the largest town among the codes sharing its leading digits (the code itself is
   * not in the table, or its town is not placed): near, but another town's point. */
  neighbourCodeTown: 0.6,
  /** A town written by its initials ("SF, CA"): the region's big city of those initials, likely but read
   * from two letters. */
  cityInitials: 0.8,
  /** Five digits and nothing else: a US ZIP, or the postal code of one of the many other countries with
   * five-digit codes (Germany, France, Italy, Spain, Mexico…), most of them without a table here. Below 0.7
   * at postal_code level: the country is a guess, however well the code is known. */
  bareFiveDigits: 0.75,
  /** Five digits alone that the US ZIP data and another country's table both hold ("10115": New York and Berlin):
   * the answer is one of two or more, and says so in `alternatives`. */
  postalCodeInSeveralCountries: 0.85,
} as const;

/** Several places match: the chosen one's share of their total population sets how much is lost. */
export function ambiguityFactor(chosenPopulation: number, populations: number[]): number {
  const total = populations.reduce((s, p) => s + Math.max(1, p), 0);
  const share = Math.max(1, chosenPopulation) / total;
  return 0.6 + 0.3 * share;
}

/** A ZIP and a city of another name this close are one place (mailing names differ from town names). */
export const ZIP_CITY_KM = 30;

/** A part of an address that names a place this close to the town is that town's district or borough
 * ("Shoreditch, London", "Westminster, London"): it settles which town is meant and is not a leftover. */
export const DISTRICT_KM = 25;

/** A region or country name is read as a city only when the city is at least this big ("New York"). */
export const AREA_NAME_CITY_MIN_POPULATION = 100_000;

export function roundConfidence(c: number): number {
  return Math.round(Math.min(1, Math.max(0, c)) * 100) / 100;
}
