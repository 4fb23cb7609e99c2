// Human-cleaned web pages from four public boilerplate-removal corpora, as mirrored together in
// github.com/j-szulc/html-cleaning-dataset-merged (each under its original terms; the mirror claims no rights):
//   cleaneval-dev, cleaneval-final: CleanEval 2007 (Baroni et al., LREC 2008), annotators' cleaned text;
//   CleanPortalEval: Endrédy & Novák 2013 (github.com/ppke-nlpg/CleanPortalEval), same format, portal pages;
//   dragnet: Peters & Lecocq 2013 (github.com/seomoz/dragnet_data), hand-extracted article text (+ comments);
//   page-signal: Google News pages with the L3S-GN1 annotation (Kohlschütter et al. 2010; x-nc-sel1 headline,
//   x-nc-sel2 full text, the main content by that paper's definition).
// The mirror's readability folder is left out (bench/markdown-readability covers it). No part of
// scrapinghub/article-extraction-benchmark is in this mirror, and none is read: that corpus is kept for an
// independent check. Found at bench time, never committed: BENCH_CLEANING_DIR (a checkout), a local git mirror
// (BENCH_CLEANING_GIT or /work/.mirror/j-szulc+html-cleaning-dataset-merged/repo), else GitHub's tarball.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseHTML } from 'linkedom';
import { queryHalf } from './query-half.mjs';

const MIRROR = '/work/.mirror/j-szulc+html-cleaning-dataset-merged/repo';
const TARBALL = 'https://codeload.github.com/j-szulc/html-cleaning-dataset-merged/tar.gz/refs/heads/main';

/** Sub-dataset name → folder in the mirror and how its truth file becomes plain text. */
export const SUBSETS = {
  'cleaneval-dev': { dir: 'cleaneval-dev', truth: cleanEvalText },
  'cleaneval-final': { dir: 'cleaneval-final', truth: cleanEvalText },
  cleanportaleval: { dir: 'CleanPortalEval-master', truth: cleanEvalText },
  dragnet: { dir: 'dragnet_data', truth: dragnetText },
  'page-signal': { dir: 'page-signal-master', truth: l3sText },
};

/** CleanEval format: a "URL: …" line, then text with <h>, <p>, <l> paragraph marks. */
function cleanEvalText(raw) {
  return raw.replace(/^\s*URL:[^\n]*\n/, '').replace(/<\/?[hpl]>/gi, ' ');
}

/** dragnet: the article, then (after a marker line) reader comments, which are not main content here. */
function dragnetText(raw) {
  const at = raw.indexOf('!@#$%^&*()');
  return at >= 0 ? raw.slice(0, at) : raw;
}

/** L3S-GN1: the page itself with content spans classed x-nc-sel1 (headline) and x-nc-sel2 (full text). */
function l3sText(raw) {
  const doc = parseHTML(raw).document;
  const parts = [];
  for (const el of doc.querySelectorAll('.x-nc-sel1, .x-nc-sel2')) {
    if (el.parentElement?.closest('.x-nc-sel1, .x-nc-sel2')) continue; // counted with its ancestor
    parts.push(el.textContent ?? '');
  }
  return parts.join('\n');
}

/** UTF-16 when the bytes start with its byte-order mark (some dragnet truth files), UTF-8 when they are valid
 * UTF-8, else windows-1252 (the older files' encoding). */
export function decode(bytes) {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** @returns {Promise<{ root: string, origin: string, cleanup: () => void } | { skip: string }>} */
export async function locateCleaningCorpus(env = process.env) {
  const given = env.BENCH_CLEANING_DIR;
  if (given) return fs.existsSync(given) ? { root: given, origin: given, cleanup: () => {} } : { skip: `BENCH_CLEANING_DIR=${given} does not exist` };
  const dirs = Object.values(SUBSETS).map((s) => s.dir);
  const gitDir = env.BENCH_CLEANING_GIT ?? MIRROR;
  if (fs.existsSync(gitDir)) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cleaning-'));
    const tar = execFileSync('git', ['--git-dir', gitDir, 'archive', '--format=tar', 'HEAD', ...dirs], { maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', tmp], { input: tar, maxBuffer: 1 << 30 });
    const commit = execFileSync('git', ['--git-dir', gitDir, 'rev-parse', 'HEAD']).toString().trim();
    return { root: tmp, origin: `git mirror, commit ${commit.slice(0, 12)}`, cleanup: () => fs.rmSync(tmp, { recursive: true, force: true }) };
  }
  if (env.BENCH_OFFLINE === '1') return { skip: 'no local copy of j-szulc/html-cleaning-dataset-merged and BENCH_OFFLINE=1' };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cleaning-'));
  try {
    const res = await fetch(TARBALL, { signal: AbortSignal.timeout(300_000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    fs.writeFileSync(path.join(tmp, 'src.tar.gz'), Buffer.from(await res.arrayBuffer()));
    execFileSync('tar', ['-xzf', 'src.tar.gz', '--strip-components=1', '--wildcards', ...dirs.map((d) => `*/${d}/*`)], { cwd: tmp });
    return { root: tmp, origin: TARBALL, cleanup: () => fs.rmSync(tmp, { recursive: true, force: true }) };
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    return { skip: `html-cleaning-dataset-merged not found locally and download failed (${err?.cause?.code ?? err?.message ?? err}); set BENCH_CLEANING_DIR` };
  }
}

/**
 * A deterministic sample: per sub-dataset, the pages with a non-empty truth ordered by FNV-1a of
 * "subset/name", the first `perSubset`. half = queryHalf of the same key ('tuning' or 'held out').
 * @returns {{ subset: string, name: string, url: string, file: string, truthText: string, half: string }[]}
 */
export function loadCleaningCases(root, perSubset = 100) {
  const cases = [];
  for (const [subset, { dir, truth }] of Object.entries(SUBSETS)) {
    const inputDir = path.join(root, dir, 'input');
    const goldDir = path.join(root, dir, 'GoldStandard');
    if (!fs.existsSync(inputDir) || !fs.existsSync(goldDir)) continue;
    const pages = [];
    for (const f of fs.readdirSync(inputDir)) {
      if (!f.endsWith('.html')) continue;
      const name = f.slice(0, -'.html'.length);
      const gold = ['.txt', '.html'].map((ext) => path.join(goldDir, name + ext)).find((p) => fs.existsSync(p));
      if (!gold) continue;
      const truthText = truth(decode(fs.readFileSync(gold)));
      if (!/[\p{L}\p{N}]/u.test(truthText)) continue; // a page whose annotators kept nothing scores nothing
      const key = `${subset}/${name}`;
      pages.push({ subset, name: key, url: `cleaning-corpus:${key}`, file: path.join(inputDir, f), truthText, half: queryHalf(key), order: fnv(key) });
    }
    pages.sort((a, b) => a.order - b.order || (a.name < b.name ? -1 : 1));
    cases.push(...pages.slice(0, perSubset));
  }
  return cases;
}

function fnv(s) {
  let h = 0x811c9dc5;
  for (const ch of s) h = Math.imul(h ^ ch.codePointAt(0), 0x01000193) >>> 0;
  return h;
}
