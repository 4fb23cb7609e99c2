// Resolves an address against the embedded gazetteer at the most specific level the data supports:
// US ZIP centroid, then city, then region, then country. Street-level precision is never claimed: the
// data holds centroids, so "1600 Amphitheatre Pkwy, Mountain View, CA 94043" is answered at postal_code
// precision with the house number and street kept in `components` as read.
import { countryName } from '../shared/countries.js';
import { subdivisionByCode, type Subdivision } from '../shared/subdivisions.js';
import { normaliseName } from '../shared/text.js';
import { namesArea, readAddress, type AddressLexicon, type AddressReading } from './address-reader.js';
import {
  AREA_NAME_CITY_MIN_POPULATION,
  FACTOR,
  LEVEL_CONFIDENCE,
  PRECISION_RANK,
  ZIP_CITY_KM,
  DISTRICT_KM,
  ambiguityFactor,
  roundConfidence,
  type Precision,
} from './confidence.js';
import { byImportance, distanceKm, type Gazetteer, type Locality } from './gazetteer.js';
import { firstLevelOf, type MinorRegion } from './minor-regions.js';
import { canadianProvinceOfPostcode, ukPostTownOfPostcode } from './postcode-regions.js';
import { codeFormFirst, postalFormFits } from './postal-formats.js';
import { namesUnplacedTown, neighbourRegion, neighbourTown, placePostalCodes, servesTown, type PostalMatch } from './postal-match.js';
import { EMBEDDED_ATTRIBUTION, roundCoordinate, type PlaceAlternative, type PlaceResult } from './place-result.js';

interface Resolution {
  reading: AddressReading;
  precision: Precision;
  lat: number;
  lng: number;
  confidence: number;
  city: string | null;
  region: Subdivision | null;
  country: string | null;
  /** The matching places at this level (for the ambiguity measure across readings). */
  candidates: Locality[];
  chosen: Locality | null;
  zip: string | null;
  /** A part of this reading was not found (so it is a fallback, not a real alternative meaning). */
  unmatched: boolean;
  /** Other parts of the address that name a place next to the chosen town (its district or borough). */
  districts: string[];
  /** The town is the region's largest, standing in for a street's town the data does not know. */
  largestTownGuess?: boolean;
  /** The doubt among the candidates is already in `confidence` (a postal code alone held by several countries'
   * tables: their towns' sizes say nothing about which country's code was meant). */
  ambiguityCounted?: boolean;
  /** Other units of the answered unit's name, where no country was named to tell them apart (the alternatives). */
  otherUnits?: MinorRegion[];
  notes: string[];
}

export function gazetteerLexicon(g: Gazetteer): AddressLexicon {
  return {
    countryCodeByName: (t) => g.countryCodeByName(t),
    isCountryCode: (c) => g.isCountryCode(c),
    countryCodeByAlpha3: (c) => g.countryCodeByAlpha3(c),
    regions: (t, codes, country) => g.regions(t, codes, country),
    hasLocality: (n, c, a) => g.hasLocality(n, c, a) || slashedNames(n).some((part) => g.hasLocality(part, c, a)),
  };
}

/** Null when nothing in the address matches the data. */
export function geocodeEmbedded(g: Gazetteer, address: string): PlaceResult | null {
  const resolutions = readAddress(address, gazetteerLexicon(g))
    .map((r) => resolveReading(g, r))
    .filter((r): r is Resolution => r !== null);
  if (resolutions.length === 0) return null;

  const best = resolutions.reduce((a, b) => (better(b, a) ? b : a));
  const notes = [...best.notes];
  let confidence = best.confidence;

  // Ambiguity is measured over every reading that reached the same level ("London, CA": California's
  // London and Ontario's both count).
  // Only readings of the same words count ("Kreuzberg, Berlin" is not made ambiguous by the Berlins), and a
  // district that settled the town leaves no doubt about it ("Westminster, London").
  const pool = new Map<string, Locality>();
  const words = (r: Resolution) => normaliseName(r.reading.locality ?? r.chosen?.name ?? '');
  const sameWords = (r: Resolution) => words(r) === words(best);
  // A region's largest town, standing in for an unknown one, is no namesake of the words written.
  const pooled =
    best.districts.length > 0 || best.largestTownGuess
      ? [best]
      : resolutions.filter((r) => r.precision === best.precision && sameWords(r) && !r.largestTownGuess);
  for (const r of pooled) for (const c of r.candidates) pool.set(c.id, c);
  if (pool.size > 1 && best.chosen && !best.ambiguityCounted) {
    confidence *= ambiguityFactor(
      best.chosen.population,
      [...pool.values()].map((c) => c.population),
    );
    notes.push(`${pool.size} places match "${best.reading.locality ?? address}"; the most prominent was chosen`);
  }
  // The same words naming another area at another level ("Georgia": the US state and the country). A unit
  // below the answer's own region is the address's county, not another meaning ("Midway, Greene County, Tennessee").
  const firstLevel = (r: Resolution) => (r.region ? firstLevelOf(r.region) : null);
  const otherMeanings = best.reading.areaNameAsLocality
    ? []
    : resolutions.filter(
        (r) => r !== best && !r.unmatched && r.precision !== best.precision && (r.country !== best.country || firstLevel(r) !== firstLevel(best)),
      );
  if (otherMeanings.length > 0) {
    confidence *= FACTOR.otherMeaning;
    const other = otherMeanings[0]!;
    notes.push(`"${address.trim()}" can also mean ${other.region?.name ?? countryName(other.country) ?? other.country} (${other.precision})`);
  }
  const alternatives: PlaceAlternative[] = [
    ...otherMeanings.map((r) => ({
      lat: roundCoordinate(r.lat),
      lng: roundCoordinate(r.lng),
      formatted_address: formatted(r, countryName(r.country)),
      precision: r.precision,
      country_code: r.country,
    })),
    // Only as many as can be shown are formatted (a common name has hundreds of namesakes).
    ...[...pool.values()]
      .filter((c) => c.id !== best.chosen?.id)
      .sort(byImportance)
      .slice(0, MAX_ALTERNATIVES)
      .map((c) => localityAlternative(g, c)),
    ...namesakeTowns(g, best, address)
      .slice(0, MAX_ALTERNATIVES)
      .map((c) => localityAlternative(g, c)),
    ...namedAreas(g, best),
    // Other units of the name, with their region: "Cook County, Georgia, United States" beside Illinois'.
    ...(best.otherUnits ?? []).flatMap((u) => areaAlternative(g, u, [u.name, u.within?.name])),
    ...postalCodesAbroad(g, best),
  ]
    .filter(firstOfEachPlace())
    .slice(0, MAX_ALTERNATIVES);
  const reading = best.reading;
  if ((reading.houseNumber || reading.street) && PRECISION_RANK[best.precision] < PRECISION_RANK.street) {
    confidence *= FACTOR.coarserThanAsked;
    notes.push(`street-level data is not available: answered at ${best.precision.replace('_', ' ')} level`);
  }
  // Words split off a place part for a district the data does not place beside the town: the town was read
  // out of a name the data does not know, which may be another place's ("Kūki 'Āirani" is not Kuki, Japan).
  const unconfirmed = reading.splitDistrict !== undefined && !best.districts.includes(reading.splitDistrict) ? reading.splitDistrict : null;
  if (unconfirmed !== null) {
    confidence *= FACTOR.unmatchedPart * FACTOR.leftover;
    notes.push(`"${unconfirmed}" was read as a district of ${best.city ?? 'the town'} and not used: the embedded data does not place it there`);
  }
  // The last part, where the town is usually written, read past as an area the data does not know.
  if (reading.lastPartUnknown && best.districts.length === 0) {
    confidence *= FACTOR.unmatchedPart;
    notes.push(`the last part names no place in the embedded data: ${best.city ?? 'the town'} was read from the part before it`);
  }
  for (const part of reading.leftovers.filter((p) => !best.districts.includes(p) && p !== unconfirmed).slice(0, 2)) {
    confidence *= FACTOR.leftover;
    notes.push(`"${part}" was not used`);
  }

  const countryNameText = best.country ? countryName(best.country) : null;
  const stateRegion = best.region ? firstLevelOf(best.region) : null;
  return {
    lat: roundCoordinate(best.lat),
    lng: roundCoordinate(best.lng),
    confidence: roundConfidence(confidence),
    formatted_address: formatted(best, countryNameText),
    components: {
      house_number: reading.houseNumber,
      street: reading.street,
      city: best.city,
      // A unit below the first level ("Cook County") is in the address's text; the state is the region it lies in.
      state: stateRegion?.name ?? null,
      state_code: stateRegion?.code ?? stateRegion?.iso ?? null,
      country: countryNameText,
      country_code: best.country,
      postal_code: reading.postalCode,
    },
    precision: best.precision,
    candidates: Math.max(1, pool.size) + otherMeanings.length,
    alternatives,
    source: { kind: 'embedded', attribution: EMBEDDED_ATTRIBUTION, fallback_reason: null },
    notes,
  };
}

const MAX_ALTERNATIVES = 3;

/** "Mexico" (the State of México), "Niger" (a Nigerian state): a region named like a country loses to it,
 * unless it is one of the curated US/CA/AU/UK regions ("Georgia" stays US-first). */
function regionNamedLikeACountry(region: Resolution, country: Resolution): boolean {
  if (region.precision !== 'region' || country.precision !== 'country' || region.reading.locality !== null || country.reading.locality !== null) return false;
  return region.country === country.country || region.region?.code === null;
}

/** A name alone answered as a region or country ("Washington", "Lebanon", "Victoria"): the biggest towns of
 * that name are the other likely intents (Washington, D.C.; Lebanon, PA; Victoria, BC). */
function namesakeTowns(g: Gazetteer, best: Resolution, address: string): Locality[] {
  if ((best.precision !== 'region' && best.precision !== 'country') || best.reading.locality !== null || /[,\d]/.test(address)) return [];
  return g.localities(address.trim()).filter((l) => l.featureCode !== 'ZIP');
}

/** A region's name read as its city ("New York", "Wien"): the region itself is the other likely intent. */
function namedAreas(g: Gazetteer, best: Resolution): PlaceAlternative[] {
  if (!best.reading.areaNameAsLocality || best.reading.locality === null || best.candidates.length > MAX_ALTERNATIVES) return [];
  return g.regions(best.reading.locality, false).flatMap((s) => areaAlternative(g, s, [s.name]));
}

/** An area offered as an alternative at its point, named by `names` and its country; none where it has no point. */
function areaAlternative(g: Gazetteer, s: Subdivision, names: readonly (string | undefined)[]): PlaceAlternative[] {
  const point = g.regionPoint(s);
  if (!point) return [];
  const formatted = [...names, countryName(s.country) ?? s.country].filter((part): part is string => Boolean(part)).join(', ');
  return [{ lat: roundCoordinate(point.lat), lng: roundCoordinate(point.lng), formatted_address: formatted, precision: 'region', country_code: s.country }];
}

/** Whether `text` has letters and none of them Latin (Cyrillic, Hangul, Arabic, Han…). */
function writtenOutsideLatin(text: string): boolean {
  return /\p{L}/u.test(text) && !/\p{Script=Latin}/u.test(text);
}

/** The country a ZIP is in: the US, or one of the freely associated states the US ZIP system serves (the ZIP
 * data writes Micronesia's, the Marshall Islands' and Palau's own ISO codes where a state's would be: they are
 * no US subdivision). */
function zipCountry(zip: { state: string }): string {
  return subdivisionByCode('US', zip.state) === undefined && countryName(zip.state) !== null ? zip.state : 'US';
}

/** A filter keeping the first alternative at each point of each country (a postal code abroad is offered both
 * as a candidate and as the same code in another table). */
function firstOfEachPlace(): (a: PlaceAlternative) => boolean {
  const seen = new Set<string>();
  return (a) => {
    const key = `${a.country_code}|${a.lat}|${a.lng}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
}

/** Five digits alone: the same code in the other countries' tables ("10117": Berlin) and, when another
 * country's was chosen, the US ZIP ("13353": Hoffmeister, NY). */
function postalCodesAbroad(g: Gazetteer, best: Resolution): PlaceAlternative[] {
  const r = best.reading;
  if (!r.zip5 || r.locality !== null || r.region !== null || r.country !== null || r.street !== null) return [];
  // (Not when the answer is the ZIP itself, in a country of its own: "96940" is Palau's.)
  const zip = best.country === 'US' || best.chosen?.id === `zip${r.zip5}` ? undefined : g.zip(r.zip5);
  const us: PlaceAlternative[] = zip
    ? [
        {
          lat: roundCoordinate(zip.lat),
          lng: roundCoordinate(zip.lng),
          formatted_address: `${zip.city}, ${zip.state} ${zip.zip}, ${countryName(zipCountry(zip)) ?? 'United States'}`,
          precision: 'postal_code',
          country_code: zipCountry(zip),
        },
      ]
    : [];
  const abroad = placePostalCodes(g, g.postal.lookup(r.zip5, null))
    .filter((m) => m.code.country !== best.country)
    .map((m) => ({
      lat: roundCoordinate(m.lat),
      lng: roundCoordinate(m.lng),
      formatted_address: [m.townName, m.region?.name, countryName(m.code.country) ?? m.code.country].filter(Boolean).join(', '),
      precision: m.ownPoint ? ('postal_code' as const) : m.regionOnly ? ('region' as const) : ('locality' as const),
      country_code: m.code.country,
    }));
  return [...us, ...abroad];
}

function localityAlternative(g: Gazetteer, l: Locality): PlaceAlternative {
  const region = g.region(l.country, l.admin1);
  const regionText = region ? (l.country === 'US' ? region.code : region.name) : null;
  return {
    lat: roundCoordinate(l.lat),
    lng: roundCoordinate(l.lng),
    formatted_address: [l.name, regionText, countryName(l.country) ?? l.country].filter(Boolean).join(', '),
    precision: 'locality',
    country_code: l.country,
  };
}

function better(a: Resolution, b: Resolution): boolean {
  // A reading whose every part was found beats one that dropped a part to reach a finer level
  // ("Dadra and Nagar Haveli, IN": the Indian territory, not Indiana without the place).
  if (a.unmatched !== b.unmatched) return !a.unmatched;
  // "Blaine County, Montana": the county in the state, not the state's name read as a town elsewhere with the
  // county left unused (a part named by its kind only: "Kadıköy, İstanbul" stays the city; and a unit within
  // DISTRICT_KM of that town is its district: "Bezirk Mitte, Berlin" stays Berlin).
  if (countyOfNamedRegion(a) && dropsPartForAreaName(b) && !districtOfTown(a, b)) return true;
  if (countyOfNamedRegion(b) && dropsPartForAreaName(a) && !districtOfTown(b, a)) return false;
  // "Mexico": the country, not its State of México (a region named like the country it lies in).
  if (regionNamedLikeACountry(a, b)) return false;
  if (regionNamedLikeACountry(b, a)) return true;
  const rank = PRECISION_RANK[a.precision] - PRECISION_RANK[b.precision];
  if (rank !== 0) return rank > 0;
  if (Math.abs(a.confidence - b.confidence) > 1e-9) return a.confidence > b.confidence;
  // "…, Rosto do Cão (Livramento), Ponta Delgada": a town named by the whole last part, where towns are written,
  // beats a town read from an earlier part, however much bigger (population decides only between readings alike).
  // Not a town split off the last part ("Alt-Berlin"): that is as doubtful as the earlier part.
  const lastWhole = (x: Resolution) => !x.reading.townBeforeEnd && x.reading.splitDistrict === undefined;
  if (a.reading.townBeforeEnd !== b.reading.townBeforeEnd && lastWhole(a) !== lastWhole(b)) return lastWhole(a);
  // Two second-level units alike: the bigger, US first ("Humboldt County, CA": California's county of several
  // places, not a Canadian division of one).
  if (unitPlaces(a) > 0 && unitPlaces(b) > 0) return usFirst(a, unitPlaces(a)) > usFirst(b, unitPlaces(b));
  // Same level and confidence: the more populous place, with the US counted double (US-first reading).
  return weight(a) > weight(b);
}

/** A unit below the first level ("Blaine County") answered with every part of the address used. */
function countyOfNamedRegion(r: Resolution): boolean {
  return r.precision === 'region' && r.region !== null && firstLevelOf(r.region) !== r.region && r.reading.leftovers.length === 0;
}

/** Whether the unit answered by `unit` lies within DISTRICT_KM of the town `town` answered: the town's district. */
function districtOfTown(unit: Resolution, town: Resolution): boolean {
  return town.precision === 'locality' && distanceKm(unit, town) <= DISTRICT_KM;
}

/** A region's or country's name read as a town, leaving unused a part that names an area by its kind ("Blaine County"). */
function dropsPartForAreaName(r: Resolution): boolean {
  return r.reading.areaNameAsLocality && r.reading.leftovers.some((part) => namesArea(part));
}

function weight(r: Resolution): number {
  // A region's largest town stands for the region: its size says nothing about which region was meant ("WA").
  if (r.largestTownGuess) return 0;
  return usFirst(r, r.chosen?.population ?? 0);
}

/** A size with the US counted double: readings alike go to the US first. */
function usFirst(r: Resolution, size: number): number {
  return size * (r.country === 'US' ? 2 : 1);
}

/** A second-level unit's size: how many places it holds (0 for anything else). */
function unitPlaces(r: Resolution): number {
  return r.precision === 'region' ? ((r.region as Partial<MinorRegion> | null)?.places ?? 0) : 0;
}

export function resolveReading(g: Gazetteer, r: AddressReading): Resolution | null {
  if (r.region && r.country && r.region.country !== r.country) return null;
  const country = r.country ?? r.region?.country ?? null;
  const notes: string[] = [];
  let factor = 1;
  let unmatched = false;
  const base = { reading: r, candidates: [] as Locality[], chosen: null, zip: null, unmatched: false, districts: [] as string[] };

  if (r.zip5 && (country === null || country === 'US')) {
    const zip = g.zip(r.zip5);
    if (zip) {
      const zipState = subdivisionByCode('US', zip.state) ?? null;
      const stateConflict = r.region !== null && (r.region.country !== 'US' || r.region.code !== zip.state);
      const cityConflict = r.locality !== null && normaliseName(r.locality) !== normaliseName(zip.city) && !g.localityNear(r.locality, zip, ZIP_CITY_KM);
      if (stateConflict && r.locality && r.region) {
        const inGivenState = g.localities(r.locality, { country: r.region.country, admin1: r.region.admin1 });
        if (inGivenState.length > 0) {
          notes.push(`ZIP ${r.zip5} is in ${zip.city}, ${zip.state}: it contradicts ${r.locality}, ${r.region.code}, which was used`);
          return localityResolution(g, r, inGivenState, factor * FACTOR.cityOverridesZip, notes);
        }
      }
      // "Berlin 10119", "20121 Milano": five digits next to a town that is not near that ZIP, with no US state
      // written, is another country's postal code.
      if (cityConflict && r.region === null && country === null) {
        const confirmed = postalResolution(g, r, null, factor, notes);
        if (confirmed) return confirmed;
        const abroad = codeFormFirst(
          g.localities(r.locality!).filter((l) => l.country !== 'US'),
          r.zip5,
        );
        if (abroad.length > 0) {
          notes.push(
            `${r.zip5} was read as a postal code of ${countryName(abroad[0]!.country) ?? abroad[0]!.country}: US ZIP ${r.zip5} is in ${zip.city}, ${zip.state}`,
          );
          return localityResolution(g, r, abroad, factor * FACTOR.unmatchedPart, notes);
        }
        // "Магедове 70652", "옥천읍 29031": a town the data does not know, written in a script US addresses are not
        // written in, beside five digits: another country's code, not the US ZIP of some other town.
        if (writtenOutsideLatin(r.locality!)) return null;
      }
      // "10117" alone: a US ZIP, or a German, French… code (offered as alternatives when the tables have it).
      if (r.locality === null && r.region === null && r.country === null && r.street === null && r.houseNumber === null) {
        // US first, as for readings that tie: weighing by the towns' size was tried and moved a state capital's
        // ZIP ("12207", Albany) abroad as often as it found a foreign code; the same code abroad is an alternative.
        const abroad = placePostalCodes(g, g.postal.lookup(r.zip5, null));
        factor *= bareCodeFactor(1 + abroad.length);
        notes.push(
          abroad.length > 0
            ? `${r.zip5} was read as a US ZIP; it is also a postal code in ${abroad.map((m) => countryName(m.code.country) ?? m.code.country).join(', ')} (see alternatives): add the town or country`
            : `${r.zip5} was read as a US ZIP; five digits alone may also be another country's postal code: add the town or country`,
        );
      }
      if (stateConflict) {
        factor *= FACTOR.zipStateContradiction;
        notes.push(`ZIP ${r.zip5} is in ${zip.state}, not ${r.region!.code}`);
      }
      if (cityConflict) {
        factor *= FACTOR.zipCityContradiction;
        notes.push(`ZIP ${r.zip5} is in ${zip.city}, ${zip.state}, not ${r.locality}`);
      }
      const zipPlace: Locality = {
        id: `zip${zip.zip}`,
        name: zip.city,
        country: zipCountry(zip),
        admin1: zip.state,
        population: 0,
        lat: zip.lat,
        lng: zip.lng,
        featureCode: 'ZIP',
      };
      return {
        ...base,
        precision: 'postal_code',
        lat: zip.lat,
        lng: zip.lng,
        confidence: LEVEL_CONFIDENCE.postal_code * factor,
        city: zip.city,
        region: zipState,
        country: zipPlace.country,
        candidates: [zipPlace],
        chosen: zipPlace,
        zip: zip.zip,
        notes,
      };
    }
    // "80331", "75008": five digits that are no US ZIP may be another country's postal code.
    const abroad = country === null ? postalResolution(g, r, null, factor, notes) : null;
    if (abroad) return abroad;
    factor *= FACTOR.unmatchedPart;
    unmatched = true;
    // (Said as a ZIP only where the US is written: "00144 Roma" is no US address.)
    notes.push(
      country === 'US' ? `ZIP ${r.zip5} is not in the embedded ZIP data` : `postal code ${r.zip5} is neither a US ZIP nor in the embedded postal tables`,
    );
  }

  if (r.postalCode && !r.zip5) {
    const found = postalResolution(g, r, country, factor, notes);
    if (found) return found;
  }
  // "Madrid 28014", "40303 San Miguel": a code beside a town or region of a country (not the US, whose ZIPs are
  // checked above) that no table confirms. The town is answered, less sure, and the note says the code was not
  // checked; a code not of that country's form ("40303" is no Salvadoran code) makes the reading doubtful.
  const unchecked = uncheckedCode(g, r, country);
  if (unchecked !== null) {
    factor *= unchecked.factor;
    notes.push(unchecked.note);
  }

  if (r.locality) {
    let candidates = writtenApostrophesFirst(writtenLocalities(g, r.locality, { country, admin1: r.region?.admin1 ?? null }), r.locality);
    // A code no table confirmed still has a form: towns of countries that write codes so come first ("30204
    // Cartagena": Spain's; "La Tigra 21008": Costa Rica's, not Argentina's). Five digits that are no US ZIP are
    // no US code.
    const code = r.postalCode ?? r.zip5;
    if (code !== null) candidates = codeFormFirst(candidates, code, (c) => (c === 'US' && r.zip5 !== null ? g.zip(r.zip5) !== undefined : null));
    if (r.areaNameAsLocality) {
      // A city named after a major region elsewhere ("Ontario" in California) does not stand for the words that
      // name that region; the region's own namesake city does ("New York", "Québec"). Minor regions of other
      // countries named like a big city ("Manchester", a Jamaican parish) do not take the name from the city.
      // With a postal code or street the words are an address's town ("20500 Washington").
      const named = g.regions(r.locality, false);
      const inNamed = (c: Locality) => named.some((s) => s.country === c.country && s.admin1 === c.admin1);
      const addressed = r.postalCode !== null || r.street !== null || r.houseNumber !== null;
      if (!addressed && named.some((s) => s.code !== null)) candidates = candidates.filter(inNamed);
      // Kept only for a big city: "New York" the city, but "Georgia" the state, "Mexico" the country; any city
      // when none of the regions so named can be placed ("Saint George's": Grenada's capital, not a parish of
      // Bermuda the data has no place in).
      const regionPlaced = named.some((s) => g.regionPoint(s) !== undefined);
      // "Škaljari, Kotor", "Sarubbi, Maldonado", "449 Trg Sv. Luke, Škaljari, Kotor": a district written before
      // the name makes it a town's, whatever its size, where the region so named has a town of its name.
      const besideDistrict = r.leftovers.some((part) => /\p{L}/u.test(part)) && candidates.some(inNamed);
      if (besideDistrict) candidates = candidates.filter(inNamed);
      if (!candidates[0] || (regionPlaced && !besideDistrict && candidates[0].population < AREA_NAME_CITY_MIN_POPULATION)) return null;
      factor *= FACTOR.areaNameReadAsCity;
      notes.push(`"${r.locality}" is also the name of a region or country; the city was chosen`);
    }
    if (candidates.length > 0) return { ...localityResolution(g, r, candidates, factor, notes), unmatched };
    // "SF, CA", "S.F., California", "SLC, UT": capitals, one a word, with the region written, no place of
    // that name: the initials of a big city of the region.
    const initials = r.region && r.street === null ? cityInitials(r.locality) : null;
    const initialled = initials && r.region ? g.townByInitials(initials, r.region) : undefined;
    if (initialled) {
      notes.push(`"${r.locality}" was read as the initials of ${initialled.name}`);
      return { ...localityResolution(g, r, [initialled], factor * FACTOR.cityInitials, notes), unmatched };
    }
    // "Cook County, Illinois", "Regierungsbezirk Köln, Germany": no town of that name, but a unit below the
    // region (or in the country) is: that unit is the answer, not the region around it. Not with a street,
    // whose town it would only be the area of.
    const unit = r.street === null && r.houseNumber === null ? g.unitsBelow(r.locality, country, r.region)[0] : undefined;
    const unitPoint = unit ? g.regionPoint(unit) : undefined;
    if (unit && unitPoint) {
      return {
        ...base,
        precision: 'region',
        ...unitPoint,
        confidence: LEVEL_CONFIDENCE.region * factor,
        city: null,
        region: unit,
        country: unit.country,
        notes,
      };
    }
    // "Beşiktaş", "Vişnezade, Beşiktaş": no country named and no town, region or country of that name anywhere,
    // but a second-level unit is (a city's district GeoNames lists as a unit, not as a town). Its country is
    // read from the unit, so the answer is less sure, and less again when units of several countries share it.
    const anywhere = country === null && r.region === null ? g.unitsAnywhere(r.locality) : [];
    const unitAnywhere = anywhere[0];
    const anywherePoint = unitAnywhere ? g.regionPoint(unitAnywhere) : undefined;
    if (unitAnywhere && anywherePoint) {
      const countries = new Set(anywhere.map((u) => u.country));
      notes.push(
        countries.size > 1
          ? `"${r.locality}" is a second-level unit in ${countries.size} countries and no country was named; the biggest was chosen`
          : `"${r.locality}" is read as a second-level unit of ${countryName(unitAnywhere.country) ?? unitAnywhere.country}; no country was named`,
      );
      return {
        ...base,
        precision: 'region',
        ...anywherePoint,
        confidence: LEVEL_CONFIDENCE.region * factor * FACTOR.unmatchedPart * (countries.size > 1 ? FACTOR.unmatchedPart : 1),
        city: null,
        region: unitAnywhere,
        country: unitAnywhere.country,
        otherUnits: anywhere.slice(1),
        notes,
      };
    }
    factor *= FACTOR.unmatchedPart;
    unmatched = true;
    const where = r.region ? ` in ${r.region.name}` : country ? ` in ${countryName(country) ?? country}` : '';
    notes.push(`no place named "${r.locality}"${where} in the embedded data`);
  }

  // A Canadian postal code alone still names its province.
  const region = r.region ?? (country === 'CA' && r.postalCode ? (subdivisionByCode('CA', canadianProvinceOfPostcode(r.postalCode) ?? '') ?? null) : null);
  // "… 28014 Madrid, Spain", "Triftstrasse 67 13353 Berlin": in an address, a region named like its big city
  // is that city.
  if (region && r.locality === null && (r.street || r.houseNumber || r.postalCode)) {
    const city = g.namesakeCity(region);
    if (city && city.population >= AREA_NAME_CITY_MIN_POPULATION) return { ...localityResolution(g, r, [city], factor, notes), unmatched };
  }
  // "7th Avenue, West Ridge Greater Accra Region", "64 Melbourne Road, Leyton England": a street address whose
  // town or district the data does not know lies most likely in its region's largest town (where most streets
  // and named districts are), rather than at the region's point; said in a note, at low confidence. Not where
  // the words name a big city elsewhere: then the region is the doubtful reading ("Sarajevo Canton" is no
  // Guangdong); districts often share a small town's name ("West Ridge").
  const bigCityElsewhere = (name: string) => (g.localities(name)[0]?.population ?? 0) >= AREA_NAME_CITY_MIN_POPULATION;
  // A part before the unknown town is the street's even without a street word ("Jerónimo Leiton, Rumipamba
  // Pichincha"): a lone unknown name with its region ("Nowhereville, WA") has none and stays the region, and a
  // county beside it or read as its town is no street ("New Market, Scott County, Minnesota").
  const streetGiven =
    r.street !== null || r.houseNumber !== null || (r.locality !== null && !namesArea(r.locality) && r.leftovers.some((part) => !namesArea(part)));
  // "Old City, Nablus", "Polana Cimento B, Cidade de Maputo", "St Ann's, City of Nottingham": an unknown name
  // before a region named after its big city is most likely one of that city's districts, which the data does
  // not list: the city, at low confidence and saying so, rather than the region's point (with or without a
  // street). Not where a region has no big city of its name ("Nowhereville, WA" stays Washington).
  const namesake = region && r.locality !== null && !namesArea(r.locality) && !bigCityElsewhere(r.locality) ? g.namesakeCity(region) : undefined;
  if (region && namesake && namesake.population >= AREA_NAME_CITY_MIN_POPULATION) {
    notes.push(`answered at ${namesake.name}, the city ${region.name} is named after: "${r.locality}" is not in the embedded data (likely a district of it)`);
    return { ...localityResolution(g, r, [namesake], factor * FACTOR.regionsLargestTown, notes), unmatched, largestTownGuess: true };
  }
  if (region && r.locality !== null && streetGiven && !bigCityElsewhere(r.locality)) {
    const town = g.largestTown(region);
    if (town) {
      notes.push(`answered at ${town.name}, the largest town of ${region.name}: the street's town or district is not in the embedded data`);
      return { ...localityResolution(g, r, [town], factor * FACTOR.regionsLargestTown, notes), unmatched, largestTownGuess: true };
    }
  }
  if (region) {
    const point = g.regionPoint(region);
    const within = g.placedAtRegion(region);
    if (point && within) {
      factor *= FACTOR.placedInContainingRegion;
      notes.push(`the embedded data has no place in ${region.name}: its point is that of ${within.name}, the region it lies in`);
    }
    if (point) {
      return {
        ...base,
        unmatched,
        precision: 'region',
        ...point,
        confidence: LEVEL_CONFIDENCE.region * factor,
        city: null,
        region,
        country: region.country,
        notes,
      };
    }
  }
  if (region) {
    // The region is known by name but the data has no place in it: the answer falls back to its country.
    factor *= FACTOR.unmatchedPart;
    unmatched = true;
    notes.push(`the embedded data has no point for ${region.name}`);
  }
  // "SW1A 2AA", "10 Downing Street, EH1 1YZ": a UK postcode without its town names its postcode area, and
  // the area its post town. No open UK postcode table is packaged, so the post town stands for the code, at
  // low confidence and saying so, rather than the middle of the country.
  const postTown = country === 'GB' && r.postalCode && !region && r.locality === null ? postTownOf(g, r.postalCode) : undefined;
  if (postTown) {
    notes.push(`postal code ${r.postalCode} is not in the embedded data: answered at ${postTown.name}, the post town its postcode area is named after`);
    return { ...localityResolution(g, r, [postTown], factor * FACTOR.postcodeAreaTown, notes), unmatched };
  }
  if (r.postalCode && !r.zip5 && !region && unchecked === null) {
    // The postal code's form names the country, but the embedded data has no table of that country's codes
    // (or does not have this code). With nothing else given, the country is all that is known ("1012 AB":
    // no Dutch postcode table is packaged), so the answer says so in its confidence, not only in a note.
    factor *= r.locality === null && r.street === null ? FACTOR.postalCodeOnlyCountry : FACTOR.unmatchedPart;
    notes.push(`postal code ${r.postalCode} is not in the embedded data: only its country is known from its form, answered at country level`);
  }
  // The same with only the country written ("14 Jan Erasmusstraat, Seru Domi, Curaçao"): its capital, the
  // country's own point, answered as a town. Only with a street written: parts without one may be regions
  // the data does not know ("Laâyoune - Boujdour - Sakia El Hamra, Morocco").
  if (!region && country && r.locality !== null && (r.street !== null || r.houseNumber !== null) && !bigCityElsewhere(r.locality)) {
    const town = g.countryTown(country);
    if (town) {
      notes.push(
        `answered at ${town.name}, the town that stands for ${countryName(country) ?? country}: the street's town or district is not in the embedded data`,
      );
      return { ...localityResolution(g, r, [town], factor * FACTOR.regionsLargestTown, notes), unmatched, largestTownGuess: true };
    }
  }
  if (country) {
    const point = g.countryPoint(country);
    if (point)
      return { ...base, unmatched, precision: 'country', ...point, confidence: LEVEL_CONFIDENCE.country * factor, city: null, region: null, country, notes };
  }
  return null;
}

/**
 * A postal code from the postal tables (Canada, Australia, Germany, France, Finland, Norway, India): answered at the
 * code's own centroid when the source has one, else at its town. With a town written too, the code must serve
 * that town, or the town is answered as usual. A code found in several countries ("2000": Sydney, or a
 * Norwegian code) goes to the one whose town is most populous, and the doubt lowers the confidence.
 */
function postalResolution(g: Gazetteer, r: AddressReading, country: string | null, factor: number, notes: string[]): Resolution | null {
  // A region written beside the code must be the code's ("10117 Berlin" read as the Land Berlin agrees).
  const matches = placePostalCodes(g, g.postal.lookup(r.postalCode ?? r.zip5 ?? '', country)).filter(
    (m) => !r.region || !m.region || r.region.country !== m.code.country || r.region.admin1 === m.region.admin1,
  );
  if (matches.length === 0) return country ? neighbourResolution(g, r, country, factor, notes) : null;
  if (r.locality) {
    for (const m of matches) {
      // A town only the postal table knows: the code's region, saying so ("Godby 22411": Åland).
      if (namesUnplacedTown(m, r.locality)) return postalCodeResolution(g, r, m, null, factor, notes);
      const town = servesTown(g, m, r.locality);
      if (!town) continue;
      // "36120 Suinula": the code's table names the town, the data does not place it; the code's main town
      // stands for it, which is near but not the place written.
      if (!g.hasLocality(r.locality, m.code.country, null)) {
        factor *= FACTOR.unmatchedPart;
        notes.push(`${r.locality} is not in the embedded data: answered at ${town.name}, the town its postal code ${m.code.code} serves`);
      }
      return m.ownPoint ? postalCodeResolution(g, r, m, town, factor, notes) : localityResolution(g, r, [town], factor, notes);
    }
    return null;
  }
  const best = matches[0]!;
  const bare = r.country === null && r.region === null && r.street === null && r.houseNumber === null;
  // A code alone: a guess at its country, the more doubtful the more tables hold it (the others are candidates,
  // so they are offered; the size of their towns says nothing about which was meant).
  const alone = bare && country === null;
  if (alone) {
    factor *= bareCodeFactor(matches.length);
    const others = matches.slice(1).map((m) => countryName(m.code.country) ?? m.code.country);
    notes.push(
      `${r.postalCode} was read as a postal code of ${countryName(best.code.country) ?? best.code.country}${others.length > 0 ? `; it is also one in ${others.join(', ')} (see alternatives)` : ''}: add the town or country to be sure`,
    );
  }
  return { ...postalCodeResolution(g, r, best, best.town, factor, notes, matches.slice(1)), ambiguityCounted: alone };
}

/**
 * A code of a country with a postal table that the table lacks (a firm's or a PO box's own code), with nothing
 * but its country beside it: the largest town of its neighbouring codes, rather than the middle of the country.
 */
function neighbourResolution(g: Gazetteer, r: AddressReading, country: string, factor: number, notes: string[]): Resolution | null {
  const code = r.postalCode ?? r.zip5;
  if (!code || r.locality !== null || r.street !== null || r.houseNumber !== null) return null;
  const neighbour = neighbourTown(g, code, country, r.region?.country === country ? firstLevelOf(r.region) : null);
  if (!neighbour) return r.region ? null : neighbourRegionResolution(g, r, code, country, factor, notes);
  notes.push(
    `postal code ${code} is not in the embedded data: answered at ${neighbour.town.name}, the largest town of the codes beginning ${neighbour.prefix}`,
  );
  return { ...localityResolution(g, r, [neighbour.town], factor * FACTOR.neighbourCodeTown, notes), zip: code };
}

/** The same where no neighbour places a town but all lie in one region: that region, saying why. */
function neighbourRegionResolution(g: Gazetteer, r: AddressReading, code: string, country: string, factor: number, notes: string[]): Resolution | null {
  const area = neighbourRegion(g, code, country);
  if (!area) return null;
  notes.push(`postal code ${code} is not in the embedded data: answered at ${area.region.name}, the region of the codes beginning ${area.prefix}`);
  return postalRegionResolution(r, area.region, area, country, factor * FACTOR.neighbourCodeTown, code, [], notes);
}

/** A postal code answered at its region's point (`region` precision), with the code kept as written. */
function postalRegionResolution(
  r: AddressReading,
  region: Subdivision,
  point: { lat: number; lng: number },
  country: string,
  factor: number,
  zip: string,
  candidates: Locality[],
  notes: string[],
): Resolution {
  return {
    reading: r,
    precision: 'region',
    lat: point.lat,
    lng: point.lng,
    confidence: LEVEL_CONFIDENCE.region * factor,
    city: null,
    region,
    country,
    candidates,
    chosen: candidates[0] ?? null,
    zip,
    unmatched: false,
    districts: [],
    notes,
  };
}

/** "SF", "S.F.", "SLC": two to four capitals, each with or without its full stop; the letters, or null. */
function cityInitials(text: string): string | null {
  const m = /^(?:[A-Z]\.?){2,4}$/.exec(text.trim());
  return m ? text.replace(/[.\s]/g, '') : null;
}

/** A postal code's place as a candidate (its town, or its region's point when the town is not placed). */
function postalPlace(g: Gazetteer, m: PostalMatch): Locality {
  return {
    id: `postal:${m.code.country}:${m.code.code}`,
    name: m.townName,
    country: m.code.country,
    admin1: m.region?.admin1 ?? m.town?.admin1 ?? '',
    population: m.town?.population ?? 0,
    lat: m.lat,
    lng: m.lng,
    featureCode: 'POSTAL',
  };
}

/**
 * A postal code written with a town or region of a known country other than the US that no postal table holds:
 * the factor and note of an answer that could not check it, or null. Only where a town or region is written
 * (a code with only its country is answered at the country, below) and the code is not the US ZIP path's.
 */
function uncheckedCode(g: Gazetteer, r: AddressReading, country: string | null): { factor: number; note: string } | null {
  const code = r.postalCode;
  // Only digits: a code of letters and digits names its country by its form ("SW1A 2AA"), which is what it
  // would be checked for; digits are written alike in dozens of countries.
  if (code === null || !/^\d+$/.test(code) || country === null || country === 'US' || (r.locality === null && r.region === null)) return null;
  if (g.postal.lookup(code, country).length > 0) return null;
  const name = countryName(country) ?? country;
  if (postalFormFits(code, country) === false) {
    return {
      factor: FACTOR.unmatchedPart * FACTOR.unmatchedPart,
      note: `postal code ${code} could not be checked, and ${name} does not write its postal codes so: the code may be another country's`,
    };
  }
  return { factor: FACTOR.unmatchedPart, note: `postal code ${code} could not be checked: the embedded data lists no such code for ${name}` };
}

/** The confidence factor of a postal code given alone that `countries` countries' tables hold (1 or more). */
function bareCodeFactor(countries: number): number {
  return FACTOR.bareFiveDigits * FACTOR.postalCodeInSeveralCountries ** Math.max(0, countries - 1);
}

function postalCodeResolution(
  g: Gazetteer,
  r: AddressReading,
  m: PostalMatch,
  town: Locality | null,
  factor: number,
  notes: string[],
  others: PostalMatch[] = [],
): Resolution {
  // A town the source names but the data does not place: a neighbouring code's town is nearer than the
  // region's middle ("89275", Elchingen: Nersingen, 3 km away, not the middle of Bavaria).
  const neighbour = m.regionOnly && others.length === 0 ? neighbourTown(g, m.code.code, m.code.country, m.region) : null;
  if (neighbour) {
    notes.push(
      `postal code ${m.code.code} serves ${m.townName}, which the embedded data does not place: answered at ${neighbour.town.name}, the largest town of the codes beginning ${neighbour.prefix}`,
    );
    return { ...localityResolution(g, r, [neighbour.town], factor * FACTOR.neighbourCodeTown, notes), zip: m.code.code };
  }
  if (m.regionOnly && m.region) {
    notes.push(`postal code ${m.code.code} serves ${m.townName}, which the embedded data does not place: answered at its region, ${m.region.name}`);
    const candidates = [postalPlace(g, m), ...others.map((o) => postalPlace(g, o))];
    return postalRegionResolution(r, m.region, m, m.code.country, factor * FACTOR.unmatchedPart, m.code.code, candidates, notes);
  }
  if (!m.ownPoint && town && others.length === 0) {
    notes.push(`the embedded data has no centroid for postal code ${m.code.code}: answered at ${town.name}, the town it serves`);
    return localityResolution(g, r, [town], factor, notes);
  }
  const place: Locality = {
    id: `postal:${m.code.country}:${m.code.code}`,
    name: town?.name ?? m.townName,
    country: m.code.country,
    admin1: m.region?.admin1 ?? town?.admin1 ?? '',
    population: town?.population ?? 0,
    lat: m.lat,
    lng: m.lng,
    featureCode: 'POSTAL',
  };
  if (!m.ownPoint) notes.push(`the embedded data has no centroid for postal code ${m.code.code}: answered at ${place.name}, the town it serves`);
  else if (m.code.district && (r.postalCode ?? '').replace(/\s/g, '').length > m.code.code.length) {
    factor *= FACTOR.postalDistrict;
    notes.push(`the embedded data has districts, not full postal codes: answered at the centroid of district ${m.code.code}`);
  }
  const alternatives = others.map((o) => postalPlace(g, o));
  return {
    reading: r,
    precision: m.ownPoint ? 'postal_code' : 'locality',
    lat: m.lat,
    lng: m.lng,
    confidence: LEVEL_CONFIDENCE[m.ownPoint ? 'postal_code' : 'locality'] * factor,
    city: place.name,
    region: m.region ?? (town ? (g.region(town.country, town.admin1) ?? null) : null),
    country: m.code.country,
    candidates: [place, ...alternatives],
    chosen: place,
    zip: m.code.code,
    unmatched: false,
    districts: [],
    notes,
  };
}

/**
 * The towns among `candidates` next to which another part of the address names a place: "Westminster, London"
 * is London, England, and "Westminster" its district, not a leftover.
 */
function townsWithDistricts(g: Gazetteer, r: AddressReading, candidates: Locality[]): { towns: Locality[]; districts: string[] } {
  let towns = candidates;
  const districts: string[] = [];
  for (const part of r.leftovers) {
    // A district the data has as a place ("Islington", "Charlottenburg") or as a subdivision ("City of Westminster").
    const points: { id?: string; lat: number; lng: number }[] = [...g.localities(part), ...g.districtPoints(part)];
    if (points.length === 0) continue;
    const near = towns.filter((t) => points.some((p) => p.id !== t.id && distanceKm(p, t) <= DISTRICT_KM));
    if (near.length === 0) continue;
    towns = near;
    districts.push(part);
  }
  return { towns, districts };
}

/**
 * "Piran / Pirano", "Bolzano/Bozen", "Koper / Capodistria": the names of a town written in two languages, or [].
 * Only names of as many words each: "Semedela Koper / Capodistria" is a district and a town, which the town's
 * other name must not swallow.
 */
function slashedNames(name: string): string[] {
  if (!/\p{L}\s*\/\s*\p{L}/u.test(name)) return [];
  const names = name.split(/\s*\/\s*/).filter(Boolean);
  const words = (n: string) => n.split(/\s+/).length;
  return names.every((n) => words(n) === words(names[0]!)) ? names : [];
}

/** The places of a name as written, or, for a town written by its names in two languages, of the first of them
 * the data knows (bilingual areas write both: "Piran / Pirano"; the data has one). */
function writtenLocalities(g: Gazetteer, name: string, filter: { country: string | null; admin1: string | null }): Locality[] {
  const whole = g.localities(name, filter);
  if (whole.length > 0) return whole;
  for (const part of slashedNames(name)) {
    const found = g.localities(part, filter);
    if (found.length > 0) return found;
  }
  return [];
}

const APOSTROPHE = /['’ʼ]/;

/**
 * "St. George's": names that match only once their punctuation is folded away ("Saint-Georges", Quebec) come
 * after those that keep the apostrophe written ("Saint George's", Grenada), whatever their size. An apostrophe
 * is written on purpose; one left out is not evidence, so only a written one reorders.
 */
function writtenApostrophesFirst(candidates: Locality[], written: string): Locality[] {
  if (!APOSTROPHE.test(written)) return candidates;
  const kept = candidates.filter((c) => APOSTROPHE.test(c.name));
  return kept.length === 0 || kept.length === candidates.length ? candidates : [...kept, ...candidates.filter((c) => !APOSTROPHE.test(c.name))];
}

/** The British town a UK postcode's area is named after, the largest of that name in the UK (localities() sorts by importance). */
function postTownOf(g: Gazetteer, postcode: string): Locality | undefined {
  const name = ukPostTownOfPostcode(postcode);
  return name === undefined ? undefined : g.localities(name, { country: 'GB' })[0];
}

function localityResolution(g: Gazetteer, r: AddressReading, all: Locality[], factor: number, notes: string[]): Resolution {
  const { towns: candidates, districts } = townsWithDistricts(g, r, all);
  const chosen = candidates[0]!;
  return {
    reading: r,
    precision: 'locality',
    lat: chosen.lat,
    lng: chosen.lng,
    confidence: LEVEL_CONFIDENCE.locality * factor,
    city: chosen.name,
    region: g.region(chosen.country, chosen.admin1) ?? null,
    country: chosen.country,
    candidates,
    chosen,
    zip: null,
    unmatched: false,
    districts,
    notes,
  };
}

function formatted(r: Resolution, country: string | null): string {
  const countryText = country ?? r.country ?? '';
  switch (r.precision) {
    case 'postal_code':
      return `${r.city}, ${[r.region?.code, r.zip].filter(Boolean).join(' ')}, ${countryText}`.replace(/\s+,/g, ',');
    case 'locality': {
      const region = r.region ? (r.country === 'US' ? r.region.code : r.region.name) : null;
      return [r.city, region, countryText].filter(Boolean).join(', ');
    }
    case 'region': {
      const first = r.region ? firstLevelOf(r.region) : null;
      return [r.region?.name, first !== r.region ? first?.name : null, countryText].filter(Boolean).join(', ');
    }
    default:
      return countryText;
  }
}
