// Where geo data built from the data packages lives. Built indexes are written per user, outside the
// install (a global install is often read-only, and an upgrade replaces the package folder): a read-only
// install then builds each index once, not in every process. Data prepared when the package is packed
// (`npm pack` runs prepack) ships in dist/data and is read first.
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * ~/.agent-utility/cache/<install>/<name>, beside the stdio MCP server's data directory. One folder per
 * install (a hash of where this code lives), so two installs or checkouts of different versions never
 * overwrite each other's indexes in turn.
 */
export function geoCacheFile(name: string): string {
  const install = createHash('sha256').update(here()).digest('hex').slice(0, 12);
  return path.join(os.homedir(), '.agent-utility', 'cache', install, name);
}

function here(): string {
  return path.dirname(fileURLToPath(import.meta.url));
}

/** dist/data/<name> in a packed install (this module is dist/src/geo/shared/data-files.js there). */
export function shippedDataFile(name: string): string {
  return path.resolve(here(), '..', '..', '..', 'data', name);
}
