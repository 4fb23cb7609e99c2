#!/usr/bin/env node
// From a fresh clone to a runnable service: installs npm packages, builds, prepares data, and makes
// sure a Chromium is there (with --for-tests also Knot DNS, Postfix and openssl for the test suite; on
// Debian as root it installs them, elsewhere it prints the exact command; and PostgreSQL: see test-postgres.mjs). Idempotent and quick when
// nothing changed, so `npm start` and `npm test` call it first. Uses only Node's standard library (it runs before node_modules exists).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const quiet = process.argv.includes('--quiet');
// --for-tests (npm test): also the system packages the test suite runs for real.
const forTests = process.argv.includes('--for-tests');
const say = (msg) => {
  if (!quiet) process.stderr.write(`[setup] ${msg}\n`);
};
/** Printed even with --quiet: something is being installed, or is missing. */
const warn = (msg) => process.stderr.write(`[setup] ${msg}\n`);
const run = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: ['ignore', quiet ? 'ignore' : 'inherit', 'inherit'], ...opts });
  if (r.status !== 0) {
    process.stderr.write(`[setup] ${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})\n`);
    process.exit(r.status ?? 1);
  }
};
const mtime = (p) => {
  try {
    return fs.statSync(p).mtimeMs;
  } catch {
    return 0;
  }
};
function newestIn(dir) {
  let newest = 0;
  if (!fs.existsSync(dir)) return 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? newestIn(p) : mtime(p));
  }
  return newest;
}

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  process.stderr.write(`agent-utility needs Node.js 20.19 or newer (this is ${process.versions.node}).\n`);
  process.exit(1);
}

// 1. npm packages
const lock = path.join(root, 'package-lock.json');
const installed = path.join(root, 'node_modules', '.package-lock.json');
if (mtime(installed) < Math.max(mtime(lock), mtime(path.join(root, 'package.json')))) {
  say('installing npm packages');
  run('npm', fs.existsSync(lock) ? ['ci', '--no-audit', '--no-fund'] : ['install', '--no-audit', '--no-fund']);
}

// 2. build
const built = path.join(root, 'dist', 'src', 'cli.js');
const sourcesChanged = Math.max(newestIn(path.join(root, 'src')), newestIn(path.join(root, 'tools')), mtime(path.join(root, 'package.json')));
if (mtime(built) < sourcesChanged) {
  say('building');
  run('npx', ['tsc', '-p', 'tsconfig.build.json']);
  run('node', ['scripts/copy-assets.mjs']);
}

// 3. data sets derived from npm packages (compact indexes built once)
for (const script of ['scripts/build-geo-data.mjs']) {
  if (fs.existsSync(path.join(root, script))) run('node', [script, ...(quiet ? ['--quiet'] : [])]);
}

// 4. system packages: a Chromium for the browser tools; with --for-tests also what the integration tests
// run for real (Knot DNS, Postfix, openssl for test certificates, the full chromium the browser tests drive).
const onPath = (name) =>
  (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .some((d) => fs.existsSync(path.join(d, name)));
const chromiumCandidates = [
  process.env.CHROMIUM_PATH,
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/bin/chromium-headless-shell',
  '/usr/bin/chromium',
  '/usr/lib/chromium/chromium',
  '/usr/bin/google-chrome',
  '/usr/bin/chromium-browser',
].filter(Boolean);
const findChromium = () => chromiumCandidates.find((p) => fs.existsSync(p));
let needs = [{ what: 'Chromium (browser tools)', packages: ['chromium-headless-shell', 'fonts-liberation'], present: () => findChromium() !== undefined }];
if (forTests) {
  needs.push(
    {
      what: 'Chromium for the browser tests',
      packages: ['chromium', 'fonts-liberation'],
      present: () =>
        [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/lib/chromium/chromium', '/usr/bin/google-chrome'].some((p) => p && fs.existsSync(p)),
    },
    { what: 'Knot DNS (DNS tests)', packages: ['knot', 'knot-dnsutils'], present: () => fs.existsSync('/usr/sbin/knotd') || onPath('knotd') },
    { what: 'Postfix (email.verify tests)', packages: ['postfix'], present: () => fs.existsSync('/usr/sbin/postfix') },
    {
      what: 'OpenSSL and CA certificates (test certificates)',
      packages: ['openssl', 'ca-certificates'],
      present: () => onPath('openssl') && fs.existsSync('/etc/ssl/certs'),
    },
  );
}
// --no-browser: leave Chromium alone (e.g. an API node that runs no browser tools).
if (process.argv.includes('--no-browser')) needs = needs.filter((n) => !n.what.startsWith('Chromium'));
let missing = needs.filter((n) => !n.present());
const missingPackages = () => [...new Set(missing.flatMap((n) => n.packages))];
const isDebian = process.platform === 'linux' && fs.existsSync('/usr/bin/apt-get') && fs.existsSync('/etc/debian_version');
const isRoot = process.getuid?.() === 0;
if (missing.length > 0 && isDebian && isRoot) {
  const packages = missingPackages();
  // Installing takes a while: say so even with --quiet.
  warn(`installing ${packages.join(' ')} (for ${missing.map((n) => n.what).join('; ')})`);
  const apt = (args) =>
    spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0;
  if (apt(['update', '-q']) && apt(['install', '-y', '-q', '--no-install-recommends', ...packages])) {
    // The package starts a system Postfix on port 25; the tests run private instances on ephemeral ports.
    if (packages.includes('postfix')) spawnSync('postfix', ['stop'], { stdio: 'ignore' });
  }
  missing = needs.filter((n) => !n.present());
}
if (missing.length > 0) {
  warn(`missing: ${missing.map((n) => n.what).join('; ')}.`);
  const packages = missingPackages().join(' ');
  if (isDebian) {
    warn(
      `  install them with: sudo apt-get update && sudo apt-get install -y --no-install-recommends ${packages}${packages.includes('postfix') ? ' && sudo postfix stop' : ''}`,
    );
  } else {
    warn(`  install the Debian/Ubuntu packages ${packages} or their equivalents for your system;`);
    warn('  Chromium elsewhere: npx playwright-core install chromium (and set CHROMIUM_PATH)');
  }
  if (forTests) warn('  the tests that need them will fail until then.');
} else if (findChromium()) {
  say(`chromium: ${findChromium()}`);
}

// 5. PostgreSQL for the tests: the machine's on 127.0.0.1:5432, or a throwaway cluster of our own.
if (forTests) {
  const { ensureTestPostgres } = await import('./test-postgres.mjs');
  try {
    say(`postgresql for the tests: ${await ensureTestPostgres({ root, warn, isDebian, isRoot })}`);
  } catch (err) {
    warn(err.message);
    warn('  the tests that need PostgreSQL will fail until then.');
  }
}
say('ready');
