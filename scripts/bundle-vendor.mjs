#!/usr/bin/env node
// Replaces the compiled form of each vendor module (one local module that re-exports everything src takes
// from a large library) with one self-contained ESM file bundled by rolldown, for `npm pack` (package.json
// prepack runs it after the build and pack-data). The libraries are then development dependencies: an install
// carries the code src reaches, not the packages' every build, source map and type file (issue #32). A
// checkout, its tests and `npm run build` keep importing the real packages; `npm run build` puts the plain
// re-export modules back. Each bundle gets `<name>.licenses.txt` beside it with the licence text of every
// package it took code from.
//
// Usage: node scripts/bundle-vendor.mjs [dist folder, default ./dist]
import fs from 'node:fs';
import path from 'node:path';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.resolve(process.argv[2] ?? path.join(root, 'dist'));

/** The vendor modules: source (bundled from the TypeScript, so the dist folder may be a copy elsewhere) and extra files copied beside the bundle. */
const VENDOR_MODULES = [
  // x402 payments: viem with ox, abitype and @noble/@scure (80 MB installed).
  { source: 'src/billing/x402/viem.ts' },
  // PDF text extraction: pdf.js's legacy build; in Node its fake worker imports ./pdf.worker.mjs beside it.
  { source: 'src/extract/document/pdf/pdfjs.ts', copy: [['pdfjs-dist/legacy/build/pdf.worker.mjs', 'pdf.worker.mjs']] },
  // Page counts and numbered page ranges of produced PDFs.
  { source: 'src/browser/pdf-lib.ts' },
  // Phone numbers of the lead service.
  { source: 'src/leads/libphonenumber.ts' },
  // The S3 artifact store (ARTIFACT_STORE=s3).
  { source: 'src/artifacts/aws-s3.ts' },
];

const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/** The folder and package.json of the package a bundled module came from. */
function packageOf(file) {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (!fs.existsSync(manifest)) continue;
    const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8'));
    // Nested package.json files that only set "type" or "sideEffects" (dist/esm/package.json) name no package.
    if (pkg.name && pkg.version) return { dir, name: pkg.name, version: pkg.version, license: pkg.license };
  }
  return undefined;
}

function licenceFile(pkg) {
  const file = fs.readdirSync(pkg.dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
  return file ? path.join(pkg.dir, file) : undefined;
}

/** A package's licence text; for a package that ships none (some @aws-sdk ones), the text of the same licence from a bundled package of its scope. */
function licenceText(pkg, packages) {
  const file = licenceFile(pkg);
  if (file) return fs.readFileSync(file, 'utf8').trim();
  const scope = pkg.name.split('/')[0];
  const same = packages.find((p) => p !== pkg && p.license && p.license === pkg.license && p.name.split('/')[0] === scope && licenceFile(p));
  if (!same) throw new Error(`${pkg.name}@${pkg.version} has no LICENSE file in ${pkg.dir}: its licence cannot ship with the bundle`);
  return fs.readFileSync(licenceFile(same), 'utf8').trim();
}

for (const m of VENDOR_MODULES) {
  const target = path.join(dist, m.source.replace(/\.ts$/, '.js'));
  if (!fs.existsSync(target)) throw new Error(`${path.relative(root, target)} is missing: run \`npm run build\` first`);
  const { output } = await build({
    input: path.join(root, m.source),
    cwd: root,
    platform: 'node',
    logLevel: 'warn',
    write: false,
    output: { format: 'esm', codeSplitting: false, comments: { legal: true, annotation: false, jsdoc: false } },
  });
  const chunks = output.filter((o) => o.type === 'chunk');
  if (chunks.length !== 1) throw new Error(`${m.source}: expected one chunk, got ${chunks.length}`);
  const [chunk] = chunks;
  // Self-contained: nothing but Node's own modules may be left to resolve at run time (an inlined dynamic
  // import names the chunk itself).
  const external = [...chunk.imports, ...chunk.dynamicImports].filter((s) => !builtins.has(s) && s !== chunk.fileName);
  if (external.length > 0) throw new Error(`${m.source}: the bundle still imports ${external.join(', ')}`);
  const packages = new Map();
  for (const id of chunk.moduleIds) {
    if (!id.includes(`${path.sep}node_modules${path.sep}`)) continue;
    const pkg = packageOf(id);
    if (pkg) packages.set(`${pkg.name}@${pkg.version}`, pkg);
  }
  if (packages.size === 0) throw new Error(`${m.source}: no package code was bundled`);
  const header = `// Bundled by scripts/bundle-vendor.mjs from ${[...packages.keys()].sort().join(', ')}; licences in ${path.basename(target, '.js')}.licenses.txt.\n`;
  fs.writeFileSync(target, header + chunk.code);
  // One entry per licence text, naming every package that ships that text (24 AWS packages share one).
  const sorted = [...packages.values()].sort((a, b) => Number(!licenceFile(a)) - Number(!licenceFile(b)) || a.name.localeCompare(b.name));
  const byText = new Map();
  for (const p of sorted) {
    const text = licenceText(p, sorted);
    byText.set(text, [...(byText.get(text) ?? []), `${p.name}@${p.version} (${p.license ?? 'see the text'})`]);
  }
  const licences = [...byText].map(([text, names]) => `${names.join('\n')}\n\n${text}\n`);
  fs.writeFileSync(path.join(path.dirname(target), `${path.basename(target, '.js')}.licenses.txt`), licences.join(`\n${'-'.repeat(78)}\n\n`));
  // tsc's source map describes the re-export module, not the bundle.
  fs.rmSync(`${target}.map`, { force: true });
  for (const [from, to] of m.copy ?? []) {
    const source = fileURLToPath(import.meta.resolve(from));
    fs.copyFileSync(source, path.join(path.dirname(target), to));
  }
  process.stderr.write(
    `[bundle-vendor] ${path.relative(dist, target)}: ${(Buffer.byteLength(chunk.code) / 1e6).toFixed(2)} MB from ${packages.size} package(s)${m.copy ? ` + ${m.copy.map(([, to]) => to).join(', ')}` : ''}\n`,
  );
}
