// The package version, read once from package.json (works from src/ under vitest and from dist/).
import fs from 'node:fs';

function findPackageJson(): { version: string; name: string } {
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      return JSON.parse(fs.readFileSync(new URL(rel, import.meta.url), 'utf8')) as { version: string; name: string };
    } catch {
      // try the next location
    }
  }
  return { version: '0.0.0', name: 'agent-utility' };
}

export const PACKAGE = findPackageJson();
export const VERSION = PACKAGE.version;
