// Mozilla Readability's test pages (github.com/mozilla/readability, test/test-pages, Apache-2.0): for each
// page the source HTML, the expected article (expected.html, full body) and expected metadata. Found at
// bench time, never committed. Order: BENCH_READABILITY_DIR (a checkout, or its test-pages folder), a local
// git mirror (BENCH_READABILITY_GIT or /work/.mirror/mozilla+readability/repo), else GitHub's tarball.
// Returns { skip } with a reason when none is reachable, so the benchmark can skip instead of failing.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const MIRROR = '/work/.mirror/mozilla+readability/repo';
const TARBALL = 'https://codeload.github.com/mozilla/readability/tar.gz/refs/heads/main';
const PAGES = 'test/test-pages';

/** @returns {Promise<{ pagesDir: string, origin: string, cleanup: () => void } | { skip: string }>} */
export async function locateReadabilityCorpus(env = process.env) {
  const given = env.BENCH_READABILITY_DIR;
  if (given) {
    const dir = fs.existsSync(path.join(given, PAGES)) ? path.join(given, PAGES) : given;
    return fs.existsSync(dir) ? { pagesDir: dir, origin: given, cleanup: () => {} } : { skip: `BENCH_READABILITY_DIR=${given} does not exist` };
  }
  const gitDir = env.BENCH_READABILITY_GIT ?? MIRROR;
  if (fs.existsSync(gitDir)) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'readability-'));
    const tar = execFileSync('git', ['--git-dir', gitDir, 'archive', '--format=tar', 'HEAD', PAGES], { maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', tmp], { input: tar });
    const commit = execFileSync('git', ['--git-dir', gitDir, 'rev-parse', 'HEAD']).toString().trim();
    return {
      pagesDir: path.join(tmp, PAGES),
      origin: `git mirror, commit ${commit.slice(0, 12)}`,
      cleanup: () => fs.rmSync(tmp, { recursive: true, force: true }),
    };
  }
  if (env.BENCH_OFFLINE === '1') return { skip: 'no local copy of mozilla/readability and BENCH_OFFLINE=1' };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'readability-'));
  try {
    const res = await fetch(TARBALL, { signal: AbortSignal.timeout(120_000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    fs.writeFileSync(path.join(tmp, 'src.tar.gz'), Buffer.from(await res.arrayBuffer()));
    execFileSync('tar', ['-xzf', 'src.tar.gz', '--strip-components=1', '--wildcards', `*/${PAGES}/*`], { cwd: tmp });
    return { pagesDir: path.join(tmp, PAGES), origin: TARBALL, cleanup: () => fs.rmSync(tmp, { recursive: true, force: true }) };
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    return { skip: `mozilla/readability not found locally and download failed (${err?.cause?.code ?? err?.message ?? err}); set BENCH_READABILITY_DIR` };
  }
}

/**
 * The pages, sorted by name: [{ name, url, file, expectedHtml, metadata, half }]. half alternates in name
 * order: 'tuning' (even index) is the half rules may be tuned on, 'held-out' (odd) is only reported.
 */
export function loadReadabilityCases(pagesDir) {
  const names = fs
    .readdirSync(pagesDir)
    .filter((n) => fs.existsSync(path.join(pagesDir, n, 'source.html')) && fs.existsSync(path.join(pagesDir, n, 'expected.html')))
    .sort();
  return names.map((name, i) => {
    const dir = path.join(pagesDir, name);
    const metaFile = path.join(dir, 'expected-metadata.json');
    return {
      name,
      url: `readability-test-page:${name}`,
      file: path.join(dir, 'source.html'),
      expectedHtml: fs.readFileSync(path.join(dir, 'expected.html'), 'utf8'),
      metadata: fs.existsSync(metaFile) ? JSON.parse(fs.readFileSync(metaFile, 'utf8')) : {},
      half: i % 2 === 0 ? 'tuning' : 'held-out',
    };
  });
}
