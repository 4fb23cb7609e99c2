// Subdivisions the first-level region data (iso3166-2-db) lacks: ISO 3166-2's second-level units (Philippine
// and Burkinabè provinces, London boroughs…) and first-level units it divides otherwise (Serbia's City of
// Belgrade), with their English names from Unicode CLDR (cldr-subdivisions-full) and what each lies in from
// CLDR's subdivision containment (cldr-core), both under the Unicode licence. Loaded from the installed
// packages at run time; nothing is copied into the repository.
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Subdivision } from '../shared/subdivisions.js';
import type { SecondLevelUnit } from './second-level-units.js';

/** A subdivision known only from CLDR, and the first-level region of the region data it lies in, if any. */
export interface MinorRegion extends Subdivision {
  within: Subdivision | null;
  /** The unit's own point, for a GeoNames admin-2 unit (second-level-units.ts); CLDR units are placed by the gazetteer. */
  point?: { lat: number; lng: number };
  /** For a GeoNames unit: how many places of 1,000+ people it holds (its size, to rank units of one name). */
  places?: number;
}

/** The first-level region `s` lies in, or `s` itself when it is one (or lies directly in its country). */
export function firstLevelOf(s: Subdivision): Subdivision {
  return (s as Partial<MinorRegion>).within ?? s;
}

/**
 * GeoNames' second-level units as subdivisions the gazetteer looks up like CLDR's, at their own points, each
 * in the first-level region `regionOf` gives for its admin1 code.
 */
export function secondLevelRegions(units: readonly SecondLevelUnit[], regionOf: (country: string, admin1: string) => Subdivision | undefined): MinorRegion[] {
  return units.map((u) => ({
    country: u.country,
    code: null,
    name: u.name,
    admin1: u.admin1,
    within: regionOf(u.country, u.admin1) ?? null,
    point: { lat: u.lat, lng: u.lng },
    places: u.places,
  }));
}

interface Containment {
  supplemental: { subdivisionContainment: Record<string, { _contains: string[] }> };
}
interface Names {
  subdivisions: { localeDisplayNames: { subdivisions: Record<string, string> } };
}

const require = createRequire(import.meta.url);

export function cldrSubdivisionFiles(): { names: string; containment: string } {
  return {
    names: require.resolve('cldr-subdivisions-full/subdivisions/en/en.json'),
    containment: require.resolve('cldr-core/supplemental/subdivisionContainment.json'),
  };
}

/** Letters of any script, with the punctuation of names (CLDR also lists codes it has no name for). */
const NAME = /^[\p{L}\p{M}\s'’.\-()/,·]+$/u;

/**
 * The CLDR subdivisions that none of `known` stands for (matched by country and ISO code), each with the
 * first-level region of `known` it lies in (through any number of CLDR levels), or null when it lies
 * directly in its country. `admin1` is that region's GeoNames admin1 code, or empty for the caller to fill.
 */
export async function loadMinorRegions(known: readonly Subdivision[], files = cldrSubdivisionFiles()): Promise<MinorRegion[]> {
  const [names, containment] = await Promise.all([
    fs.readFile(files.names, 'utf8').then((t) => (JSON.parse(t) as Names).subdivisions.localeDisplayNames.subdivisions),
    fs.readFile(files.containment, 'utf8').then((t) => (JSON.parse(t) as Containment).supplemental.subdivisionContainment),
  ]);
  const byIso = new Map<string, Subdivision>();
  for (const s of known) {
    const iso = s.iso ?? s.code;
    if (iso) byIso.set(`${s.country}|${iso}`, s);
  }
  // CLDR codes are the ISO code in lower case without its hyphen ("phben" = PH-BEN); parents are CLDR codes
  // too, or the country's own code in upper case.
  const parentOf = new Map<string, string>();
  for (const [parent, { _contains }] of Object.entries(containment)) for (const child of _contains) parentOf.set(child, parent);
  const knownAs = (code: string) => byIso.get(`${code.slice(0, 2).toUpperCase()}|${code.slice(2).toUpperCase()}`);
  const firstLevel = (code: string): Subdivision | null => {
    for (let parent = parentOf.get(code); parent && parent !== parent.toUpperCase(); parent = parentOf.get(parent)) {
      const s = knownAs(parent);
      if (s) return s;
    }
    return null;
  };
  const out: MinorRegion[] = [];
  for (const [code, name] of Object.entries(names)) {
    if (!NAME.test(name) || knownAs(code) || !parentOf.has(code)) continue;
    const within = firstLevel(code);
    const country = code.slice(0, 2).toUpperCase();
    out.push({ country, code: null, name, admin1: within?.admin1 ?? '', iso: code.slice(2).toUpperCase(), within });
  }
  return out;
}
