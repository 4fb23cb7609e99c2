// Where the built ASN index lives and how it is kept fresh. The setup step (scripts/build-geo-data.mjs)
// builds it ahead of time; if it is missing or was built from another version of @ip-location-db/asn,
// the first lookup builds it (a few seconds, once) and writes it atomically, so parallel processes never
// read a half-written file. A read-only install still works: the index then lives in memory only.
import fs from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import type { Logger } from '../../logger.js';
import { ASN_INDEX_FORMAT, decodeAsnIndex, type AsnIndex, type AsnIndexHeader } from './asn-index.js';
import { buildAsnIndexFromCsv } from './asn-index-builder.js';

const ASN_PACKAGE = '@ip-location-db/asn';

export interface AsnIndexLocation {
  v4Csv: string;
  v6Csv: string;
  source: AsnIndexHeader['source'];
  /** The built index file. */
  indexFile: string;
}

/** The installed @ip-location-db/asn package and the cache file beside it (node_modules/.cache/agent-utility). */
export function defaultAsnIndexLocation(): AsnIndexLocation {
  const require = createRequire(import.meta.url);
  const pkgJson = require.resolve(`${ASN_PACKAGE}/package.json`);
  const pkgDir = path.dirname(pkgJson);
  const version = (require(pkgJson) as { version: string }).version;
  const nodeModules = path.resolve(pkgDir, '..', '..');
  return {
    v4Csv: path.join(pkgDir, 'asn-ipv4-num.csv'),
    v6Csv: path.join(pkgDir, 'asn-ipv6-num.csv'),
    source: { package: ASN_PACKAGE, version, build_date: dateFromPackageVersion(version) },
    indexFile: path.join(nodeModules, '.cache', 'agent-utility', `asn-index-v${ASN_INDEX_FORMAT}.bin`),
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
  const existing = await readIfCurrent(loc);
  if (existing) return { index: existing, origin: 'file', loadMs: performance.now() - started };
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
    const existing = await readIfCurrent(loc);
    if (existing) return { built: false, header: existing.header };
  }
  const bytes = await buildAsnIndexFromCsv(loc);
  await writeAtomically(loc.indexFile, bytes);
  return { built: true, header: decodeAsnIndex(bytes).header };
}

async function readIfCurrent(loc: AsnIndexLocation): Promise<AsnIndex | null> {
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(loc.indexFile);
  } catch {
    return null;
  }
  try {
    const index = decodeAsnIndex(bytes);
    const s = index.header.source;
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
