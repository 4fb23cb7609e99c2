// A postal code found in the postal tables, placed: the town it serves (a gazetteer place of one of its names,
// the most populous one near the code's own centroid when it has one), its region, and the point to answer
// with (the code's centroid, else its town's).
import { subdivisionByCode, type Subdivision } from '../shared/subdivisions.js';
import { median } from '../shared/point-math.js';
import { normaliseName } from '../shared/text.js';
import { ZIP_CITY_KM } from './confidence.js';
import { distanceKm, type Gazetteer, type Locality } from './gazetteer.js';
import type { PostalCode } from './postal-codes.js';

export interface PostalMatch {
  code: PostalCode;
  /** The gazetteer's place for the code's town, when one of its names is there. */
  town: Locality | null;
  /** The town's name as the answer gives it (the gazetteer's spelling, else the source's). */
  townName: string;
  region: Subdivision | null;
  lat: number;
  lng: number;
  /** Whether the point is the code's own centroid (postal-code precision) or its town's (locality precision). */
  ownPoint: boolean;
  /** The code's town is not in the gazetteer and the code has no centroid: the point is its region's
   * (region precision, less sure). */
  regionOnly: boolean;
}

/** Every code that can be placed, the one serving the most populous town first. */
export function placePostalCodes(g: Gazetteer, codes: PostalCode[]): PostalMatch[] {
  return (
    codes
      .map((c) => placeOne(g, c))
      .filter((m): m is PostalMatch => m !== null)
      // (A code placed only at its region comes after every code placed at a town, whatever the towns' size.)
      .sort((a, b) => Number(a.regionOnly) - Number(b.regionOnly) || (b.town?.population ?? 0) - (a.town?.population ?? 0))
  );
}

/** A town standing for a code: the largest placed town among the code's nearest neighbours, and their shared leading digits. */
export interface NeighbourTown {
  town: Locality;
  prefix: string;
}

/** How far from the middle of a run of neighbouring codes their town may lie. */
const NEIGHBOUR_MAX_KM = 4 * ZIP_CITY_KM;

/** Where a code's neighbours lie: their placed towns, the middle of those, and how far from it counts as near. */
interface NeighbourArea {
  prefix: string;
  towns: Set<Locality>;
  middle: { lat: number; lng: number };
  nearKm: number;
}

/**
 * The towns the data places for the codes that share a leading run of digits with `code`
 * (PostalCodes.neighbourRuns), longest run first, in `region` when one is known, and their middle (median
 * point). A town is found by name, and a village's name may be a bigger namesake's elsewhere in the region
 * ("Au" near Freiburg, Au am Rhein near Rastatt), so only towns within twice their median distance from the
 * middle count as near (a run of two digits spans a region), at least ZIP_CITY_KM and at most
 * NEIGHBOUR_MAX_KM; two towns say nothing of which is the outlier, so there only a town's own reach counts.
 * Runs whose codes place no town are skipped.
 */
function* neighbourAreas(g: Gazetteer, code: string, country: string, region: Subdivision | null): Generator<NeighbourArea> {
  for (const run of placedRuns(g, code, country)) {
    const towns = new Set<Locality>();
    for (const m of run.placed) if (m.town && (!region || m.town.admin1 === region.admin1)) towns.add(m.town);
    if (towns.size === 0) continue;
    const middle = { lat: median([...towns].map((t) => t.lat)), lng: median([...towns].map((t) => t.lng)) };
    const spread = towns.size < 3 ? 0 : 2 * median([...towns].map((t) => distanceKm(t, middle)));
    yield { prefix: run.prefix, towns, middle, nearKm: Math.min(NEIGHBOUR_MAX_KM, Math.max(ZIP_CITY_KM, spread)) };
  }
}

/** The runs of `code`'s neighbouring codes (PostalCodes.neighbourRuns), longest first, each code placed as itself. */
function* placedRuns(g: Gazetteer, code: string, country: string): Generator<{ prefix: string; placed: PostalMatch[] }> {
  for (const run of g.postal.neighbourRuns(code, country)) {
    yield { prefix: run.prefix, placed: run.codes.map((c) => placeOne(g, c, false)).filter((m): m is PostalMatch => m !== null) };
  }
}

/** The area of the longest run of neighbours that places a town (neighbourAreas); null when none does. */
function neighbourArea(g: Gazetteer, code: string, country: string, region: Subdivision | null): NeighbourArea | null {
  return neighbourAreas(g, code, country, region).next().value ?? null;
}

/**
 * The largest town near the middle of a code's neighbours (neighbourAreas): where a code the table lacks, or
 * one whose own town the data does not place, most likely lies. A run whose towns lie too far apart to say
 * where its middle is (two towns 60 km apart) gives way to the next shorter run. Null when none is placed.
 */
export function neighbourTown(g: Gazetteer, code: string, country: string, region: Subdivision | null): NeighbourTown | null {
  for (const area of neighbourAreas(g, code, country, region)) {
    let best: Locality | null = null;
    for (const t of area.towns) if (distanceKm(t, area.middle) <= area.nearKm && (!best || t.population > best.population)) best = t;
    if (best) return { town: best, prefix: area.prefix };
  }
  return null;
}

/**
 * The region every placed code of the longest run of neighbours lies in, when none of them places a town
 * (neighbourTown found none): a code of Penang whose neighbours are all "Pulau Pinang", a name the gazetteer
 * holds as the state, not as a town. Null when the run's codes lie in several regions or in none.
 */
export function neighbourRegion(g: Gazetteer, code: string, country: string): { region: Subdivision; prefix: string; lat: number; lng: number } | null {
  for (const run of placedRuns(g, code, country)) {
    const placed = run.placed.filter((m) => m.region !== null);
    if (placed.length === 0) continue;
    const region = placed[0]!.region!;
    if (placed.some((m) => m.region !== region)) return null;
    const point = g.regionPoint(region);
    return point ? { region, prefix: run.prefix, lat: point.lat, lng: point.lng } : null;
  }
  return null;
}

/** `withNeighbours`: whether a town found by name may be checked against the code's neighbours (townOf). */
function placeOne(g: Gazetteer, code: PostalCode, withNeighbours = true): PostalMatch | null {
  const written = code.region
    ? (subdivisionByCode(code.country, code.region) ??
      g.regions(code.region, false, code.country)[0] ??
      g.regionOfIsoCode(code.country, code.region) ??
      g.regionNamedNearly(code.country, code.region) ??
      null)
    : null;
  const town = townOf(g, code, written, withNeighbours);
  const region = written ?? (town ? (g.region(town.country, town.admin1) ?? null) : null);
  // A code named by a district the gazetteer holds as a second-level unit, not as a town ("34022",
  // Beşiktaş: one of İstanbul's districts) is placed at that unit, within the code's region.
  const district = !code.point && !town && region ? districtOf(g, code, region) : null;
  if (district) return { code, town: district, townName: district.name, region, lat: district.lat, lng: district.lng, ownPoint: false, regionOnly: false };
  // A code whose small town the gazetteer lacks still names its region ("12625 Waldesruh": Brandenburg).
  const regionPoint = region ? g.regionPoint(region) : undefined;
  const point = code.point ?? (town ? { lat: town.lat, lng: town.lng } : (regionPoint ?? null));
  if (!point) return null;
  const regionOnly = code.point === null && town === null;
  return { code, town, townName: town?.name ?? displayName(code.names[0]!), region, ...point, ownPoint: code.point !== null, regionOnly };
}

/**
 * The second-level unit of `region` named by the code's main name, with a point of its own (not its region's),
 * as the town the code serves: a district is where a city's codes are written ("Beşiktaş"), and the answer is
 * at its point with a town's precision. Its id says it is a unit (`unit:` and the GeoNames-style name).
 */
function districtOf(g: Gazetteer, code: PostalCode, region: Subdivision): Locality | null {
  const name = code.names[0];
  if (!name) return null;
  for (const unit of g.unitsBelow(name, code.country, region)) {
    const point = g.regionPoint(unit);
    if (!point || g.placedAtRegion(unit)) continue;
    return {
      id: `unit:${code.country}:${unit.name}`,
      name: unit.name,
      country: code.country,
      admin1: region.admin1,
      population: 0,
      lat: point.lat,
      lng: point.lng,
      featureCode: 'ADM2',
    };
  }
  return null;
}

function townOf(g: Gazetteer, code: PostalCode, region: Subdivision | null, withNeighbours: boolean): Locality | null {
  const find = (names: string[]): Locality[] => {
    const found: Locality[] = [];
    for (const name of names) {
      for (const l of g.localities(name, { country: code.country })) {
        // With its own centroid the code says where its town is; without, its region does (if the source has one).
        if (code.point ? distanceKm(l, code.point) > ZIP_CITY_KM : region !== null && l.admin1 !== region.admin1) continue;
        if (!found.includes(l)) found.push(l);
      }
    }
    return found.sort((a, b) => b.population - a.population);
  };
  const byName = find(code.names);
  // Without a centroid, the places of its names may lie far apart: a village named like a bigger town
  // elsewhere in the region ("46600": Gignac in the Lot, not the Hérault's). The code lies among its
  // neighbours, so a place far from them is a namesake; with none near, the data does not place the code's town.
  const largest = byName[0];
  if (!code.point && withNeighbours && largest && byName.some((l) => distanceKm(l, largest) > ZIP_CITY_KM)) {
    const area = neighbourArea(g, code.code, code.country, region);
    if (area && area.towns.size >= 3) return byName.find((l) => distanceKm(l, area.middle) <= area.nearKm) ?? null;
  }
  // A district's name often holds its town's ("Downtown Toronto"): its shorter runs of words are tried next,
  // only near the code's own centroid (a word alone is too weak a clue without one).
  return byName[0] ?? (code.point ? (find(code.names.flatMap(wordRuns))[0] ?? null) : null);
}

/** The runs of one to three consecutive words of a name of several words. */
function wordRuns(name: string): string[] {
  const words = name.split(/\s+/).filter(Boolean);
  if (words.length < 2) return [];
  const runs: string[] = [];
  for (let n = Math.min(3, words.length - 1); n >= 1; n--) for (let i = 0; i + n <= words.length; i++) runs.push(words.slice(i, i + n).join(' '));
  return runs;
}

/** Whether the town written in an address is the code's town (by name, or a place of that name near it). */
export function servesTown(g: Gazetteer, m: PostalMatch, town: string): Locality | null {
  if (m.regionOnly) return null;
  const key = normaliseName(town);
  const named = g.localities(town, { country: m.code.country });
  const near = named.find((l) => distanceKm(l, m) <= ZIP_CITY_KM);
  if (near) return near;
  if (m.code.names.some((n) => normaliseName(n) === key)) return named[0] ?? m.town;
  return null;
}

/** Whether the code's source names the written town, which the gazetteer does not hold ("Godby 22411"). */
export function namesUnplacedTown(m: PostalMatch, town: string): boolean {
  const key = normaliseName(town);
  return m.regionOnly && m.code.names.some((n) => normaliseName(n) === key);
}

/** "OSLO" → "Oslo": some sources write place names in capitals. */
function displayName(name: string): string {
  if (name !== name.toUpperCase()) return name;
  return name.toLowerCase().replace(/(^|[\s\-'’])(\p{L})/gu, (_, sep: string, ch: string) => sep + ch.toUpperCase());
}
