// Where geo data built from the data packages lives. Built indexes are written per user, outside the
// install (a global install is often read-only, and an upgrade replaces the package folder): a read-only
// install then builds each index once, not in every process. Data prepared when the package is packed
// (`npm pack` runs prepack) ships in dist/data and is read first.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * ~/.agent-utility/cache/<install>/<name>, beside the stdio MCP server's data directory. One folder per
 * install (a hash of where this code lives), so two installs or checkouts of different versions never
 * overwrite each other's indexes in turn.
 */
export function geoCacheFile(name: string): string {
  return path.join(os.homedir(), '.agent-utility', 'cache', installHash(), name);
}

/**
 * The same file under the system's temporary folder (<tmp>/agent-utility-<uid>/cache/<install>/<name>), for
 * a HOME that cannot be written (a read-only home, a service account without one): built data is then
 * still shared by this user's processes instead of rebuilt in each. Only a folder this user owns, and no
 * one else may write, is used: another account could otherwise plant the file.
 */
export function tempCacheFile(name: string): string | null {
  const uid = process.getuid?.();
  if (uid === undefined) return null;
  const root = path.join(os.tmpdir(), `agent-utility-${uid}`);
  try {
    fs.mkdirSync(root, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return null;
  }
  try {
    const st = fs.lstatSync(root);
    if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o022) !== 0) return null;
  } catch {
    return null;
  }
  return path.join(root, 'cache', installHash(), name);
}

function installHash(): string {
  return createHash('sha256').update(here()).digest('hex').slice(0, 12);
}

function here(): string {
  return path.dirname(fileURLToPath(import.meta.url));
}

/** dist/data/<name> in a packed install (this module is dist/src/geo/shared/data-files.js there). */
export function shippedDataFile(name: string): string {
  return path.resolve(here(), '..', '..', '..', 'data', name);
}
