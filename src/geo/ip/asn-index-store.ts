// Where the built ASN index lives and how it is kept fresh. `npm pack` ships it in dist/data, and the setup
// step (scripts/build-geo-data.mjs) builds it into the per-user cache; if neither is current (built from
// another version of @ip-location-db/asn), the first lookup builds it (a few seconds, once) and writes it
// to the per-user cache atomically, so parallel processes never read a half-written file. Nothing is written
// inside the install. Where even the cache is not writable, the index lives in memory for that process.
import fs from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { installedPackageDir, installedPackageVersion } from '../../package-dir.js';
import type { Logger } from '../../logger.js';
import { ASN_INDEX_FORMAT, decodeAsnIndex, type AsnIndex, type AsnIndexHeader } from './asn-index.js';
import { buildAsnIndexFromCsv } from './asn-index-builder.js';
import { geoCacheFile, shippedDataFile } from '../shared/data-files.js';

const ASN_PACKAGE = '@ip-location-db/asn';

export interface AsnIndexLocation {
  v4Csv: string;
  v6Csv: string;
  source: AsnIndexHeader['source'];
  /** The built index file: written here when built. */
  indexFile: string;
  /** Read first when current: the index built when the package was packed. */
  shippedFile?: string;
  /**
   * False in a packed install, which ships the index instead of the CSV package (a development dependency):
   * the shipped index is then current by definition, and nothing can be rebuilt.
   */
  csvInstalled?: boolean;
}

/** The installed @ip-location-db/asn package, the index shipped in dist/data and the per-user cache file. */
export function defaultAsnIndexLocation(): AsnIndexLocation {
  const files = { indexFile: geoCacheFile(`asn-index-v${ASN_INDEX_FORMAT}.bin`), shippedFile: shippedDataFile(`asn-index-v${ASN_INDEX_FORMAT}.bin`) };
  const pkgDir = installedPackageDir(ASN_PACKAGE);
  const version = installedPackageVersion(ASN_PACKAGE);
  if (!pkgDir || !version) {
    return { v4Csv: '', v6Csv: '', source: { package: ASN_PACKAGE, version: 'shipped', build_date: null }, ...files, csvInstalled: false };
  }
  return {
    v4Csv: path.join(pkgDir, 'asn-ipv4-num.csv'),
    v6Csv: path.join(pkgDir, 'asn-ipv6-num.csv'),
    source: { package: ASN_PACKAGE, version, build_date: dateFromPackageVersion(version) },
    ...files,
  };
}

/** ip-location-db versions end in the data's date, e.g. 2.3.2026061719 → 2026-06-17. */
export function dateFromPackageVersion(version: string): string | null {
  const m = /\.(\d{4})(\d{2})(\d{2})\d{0,2}$/.exec(version);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

export interface LoadedAsnIndex {
  index: AsnIndex;
  /** How the index was obtained and how long it took. */
  origin: 'file' | 'built';
  loadMs: number;
}

/** Reads the index if it is current, otherwise builds it (and writes it when the location is writable). */
export async function loadAsnIndex(loc: AsnIndexLocation, log?: Logger): Promise<LoadedAsnIndex> {
  const started = performance.now();
  const existing = (loc.shippedFile ? await readIfCurrent(loc, loc.shippedFile) : null) ?? (await readIfCurrent(loc, loc.indexFile));
  if (existing) return { index: existing, origin: 'file', loadMs: performance.now() - started };
  if (loc.csvInstalled === false) throw new Error(`The ASN index ${loc.shippedFile ?? ''} is missing or unreadable; reinstall agent-utility.`);
  log?.info('building the ASN index (first use after install)', { file: loc.indexFile });
  const bytes = await buildAsnIndexFromCsv(loc);
  try {
    await writeAtomically(loc.indexFile, bytes);
  } catch (err) {
    log?.warn('could not write the ASN index; keeping it in memory for this process', { file: loc.indexFile, err });
  }
  return { index: decodeAsnIndex(bytes), origin: 'built', loadMs: performance.now() - started };
}

/** For the setup step: builds the index unless a current one exists. Returns whether it built. */
export async function ensureAsnIndexFile(loc: AsnIndexLocation, force = false): Promise<{ built: boolean; header: AsnIndexHeader }> {
  if (!force) {
    const existing = await readIfCurrent(loc, loc.indexFile);
    if (existing) return { built: false, header: existing.header };
  }
  const bytes = await buildAsnIndexFromCsv(loc);
  await writeAtomically(loc.indexFile, bytes);
  return { built: true, header: decodeAsnIndex(bytes).header };
}

async function readIfCurrent(loc: AsnIndexLocation, file: string): Promise<AsnIndex | null> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch {
    return null;
  }
  try {
    const index = decodeAsnIndex(bytes);
    const s = index.header.source;
    if (loc.csvInstalled === false) return index;
    return s.package === loc.source.package && s.version === loc.source.version ? index : null;
  } catch {
    return null; // corrupt or older format: rebuilt by the caller
  }
}

async function writeAtomically(file: string, bytes: Buffer): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await fs.writeFile(tmp, bytes);
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}
