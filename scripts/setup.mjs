#!/usr/bin/env node
// From a fresh clone to a runnable service: installs npm packages, builds, prepares data, and makes
// sure a Chromium is there. Idempotent and quick when nothing changed, so `npm start` and `npm test`
// call it first. Uses only Node's standard library (it runs before node_modules exists).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const quiet = process.argv.includes('--quiet');
const say = (msg) => {
  if (!quiet) process.stderr.write(`[setup] ${msg}\n`);
};
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

// 4. a Chromium for the browser tools
const candidates = [process.env.CHROMIUM_PATH, '/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium-headless-shell', '/usr/bin/chromium', '/usr/lib/chromium/chromium', '/usr/bin/google-chrome', '/usr/bin/chromium-browser'].filter(Boolean);
let chromium = candidates.find((p) => fs.existsSync(p));
if (!chromium && process.platform === 'linux' && process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get') && !process.argv.includes('--no-browser')) {
  say('installing Debian chromium (browser tools need it)');
  try {
    execFileSync('apt-get', ['update', '-q'], { stdio: 'ignore' });
    execFileSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'chromium-headless-shell', 'fonts-liberation'], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    chromium = candidates.find((p) => fs.existsSync(p));
  } catch {
    // fall through to the advice below
  }
}
if (!chromium) {
  say('no Chromium found: the browser.* tools will fail until one is installed.');
  say('  Debian/Ubuntu: sudo apt-get install chromium fonts-liberation');
  say('  elsewhere:     npx playwright-core install chromium   (or set CHROMIUM_PATH)');
} else {
  say(`chromium: ${chromium}`);
}
say('ready');
