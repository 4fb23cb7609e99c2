// Finds trafilatura's evaluation corpus (adbar/trafilatura, Apache-2.0) at bench time; it is never committed.
// Order: BENCH_TRAFILATURA_DIR (a checkout, or its tests/ folder), a local git mirror (BENCH_TRAFILATURA_GIT
// or /work/.mirror/adbar+trafilatura/repo), else GitHub's tarball from codeload into a temp folder.
// Returns null with a reason when none is reachable, so the benchmark can skip instead of failing.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const MIRROR = '/work/.mirror/adbar+trafilatura/repo';
const TARBALL = 'https://codeload.github.com/adbar/trafilatura/tar.gz/refs/heads/master';

/** @returns {Promise<{ testsDir: string, origin: string, cleanup: () => void } | { skip: string }>} */
export async function locateCorpus(env = process.env) {
  const given = env.BENCH_TRAFILATURA_DIR;
  if (given) {
    const tests = fs.existsSync(path.join(given, 'tests')) ? path.join(given, 'tests') : given;
    if (annotationsFile(tests)) return { testsDir: tests, origin: given, cleanup: () => {} };
    return { skip: `BENCH_TRAFILATURA_DIR=${given} has no evaldata.json or evaldata.py` };
  }
  const gitDir = env.BENCH_TRAFILATURA_GIT ?? MIRROR;
  if (fs.existsSync(gitDir)) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'trafilatura-'));
    // git archive | tar: only tests/ is needed, and the mirror has no work tree.
    const tar = execFileSync('git', ['--git-dir', gitDir, 'archive', '--format=tar', 'HEAD', 'tests'], { maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', tmp], { input: tar });
    const commit = execFileSync('git', ['--git-dir', gitDir, 'rev-parse', 'HEAD']).toString().trim();
    return {
      testsDir: path.join(tmp, 'tests'),
      origin: `git mirror, commit ${commit.slice(0, 12)}`,
      cleanup: () => fs.rmSync(tmp, { recursive: true, force: true }),
    };
  }
  if (env.BENCH_OFFLINE === '1') return { skip: 'no local copy of adbar/trafilatura and BENCH_OFFLINE=1' };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'trafilatura-'));
  try {
    const res = await fetch(TARBALL, { signal: AbortSignal.timeout(120_000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    fs.writeFileSync(path.join(tmp, 'src.tar.gz'), Buffer.from(await res.arrayBuffer()));
    execFileSync('tar', ['-xzf', 'src.tar.gz', '--strip-components=1', '--wildcards', '*/tests/*'], { cwd: tmp });
    return { testsDir: path.join(tmp, 'tests'), origin: TARBALL, cleanup: () => fs.rmSync(tmp, { recursive: true, force: true }) };
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true });
    return { skip: `trafilatura corpus not found locally and download failed (${err?.cause?.code ?? err?.message ?? err}); set BENCH_TRAFILATURA_DIR` };
  }
}

function annotationsFile(testsDir) {
  for (const name of ['evaldata.json', 'evaldata.py']) if (fs.existsSync(path.join(testsDir, name))) return path.join(testsDir, name);
  return undefined;
}

/**
 * The annotated pages: [{ url, file (absolute path), with: string[], without: string[] }]. Newer
 * checkouts keep the annotations in evaldata.json, older ones in evaldata.py as a Python dict literal.
 */
export function loadCases(testsDir) {
  const file = annotationsFile(testsDir);
  if (!file) throw new Error(`no annotations in ${testsDir}`);
  const text = fs.readFileSync(file, 'utf8');
  const data = file.endsWith('.json') ? JSON.parse(text) : parsePythonDict(text.slice(text.indexOf('{')));
  const cases = [];
  for (const [url, entry] of Object.entries(data)) {
    const found = ['cache', 'eval'].map((sub) => path.join(testsDir, sub, entry.file)).find((p) => fs.existsSync(p));
    if (!found) continue;
    cases.push({ url, file: found, with: entry.with ?? [], without: entry.without ?? [] });
  }
  return cases;
}

/**
 * A small parser for the subset of Python literals evaldata.py uses: dicts, lists, tuples, strings
 * (single, double, triple-quoted, with r/u/b prefixes and escapes, adjacent literals concatenated),
 * numbers, True/False/None, comments. Not eval: the file is data from the network.
 */
export function parsePythonDict(src) {
  let i = 0;
  const ws = () => {
    for (;;) {
      while (i < src.length && /\s/.test(src[i])) i++;
      if (src[i] === '#') while (i < src.length && src[i] !== '\n') i++;
      else return;
    }
  };
  const fail = (what) => {
    throw new Error(`evaldata.py: ${what} at offset ${i}: ${JSON.stringify(src.slice(i, i + 40))}`);
  };
  const str = () => {
    let out = '';
    // Adjacent string literals are one string in Python.
    while (/^[rRuUbBfF]{0,2}['"]/.test(src.slice(i, i + 3))) {
      let raw = false;
      while (/[rRuUbBfF]/.test(src[i])) raw ||= /[rR]/.test(src[i++]);
      const q = src.startsWith(src[i].repeat(3), i) ? src[i].repeat(3) : src[i];
      i += q.length;
      for (;;) {
        if (i >= src.length) fail('unterminated string');
        if (src.startsWith(q, i)) {
          i += q.length;
          break;
        }
        const c = src[i++];
        if (c !== '\\') {
          out += c;
          continue;
        }
        const e = src[i++];
        if (raw) out += `\\${e}`;
        else if (e === 'n') out += '\n';
        else if (e === 't') out += '\t';
        else if (e === 'r') out += '\r';
        else if (e === '0') out += '\0';
        else if (e === '\n') out += '';
        else if (e === 'x' || e === 'u' || e === 'U') {
          const digits = e === 'x' ? 2 : e === 'u' ? 4 : 8;
          out += String.fromCodePoint(parseInt(src.slice(i, i + digits), 16));
          i += digits;
        } else if ('\\\'"'.includes(e)) out += e;
        else out += `\\${e}`;
      }
      ws();
    }
    return out;
  };
  const seq = (close) => {
    const items = [];
    i++;
    for (;;) {
      ws();
      if (src[i] === close) return (i++, items);
      items.push(value());
      ws();
      if (src[i] === ',') i++;
      else if (src[i] !== close) fail(`expected , or ${close}`);
    }
  };
  const value = () => {
    ws();
    const c = src[i];
    if (c === '{') {
      const obj = {};
      i++;
      for (;;) {
        ws();
        if (src[i] === '}') return (i++, obj);
        const k = value();
        ws();
        if (src[i++] !== ':') fail('expected :');
        obj[k] = value();
        ws();
        if (src[i] === ',') i++;
        else if (src[i] !== '}') fail('expected , or }');
      }
    }
    if (c === '[') return seq(']');
    if (c === '(') return seq(')');
    if (/^[rRuUbBfF]{0,2}['"]/.test(src.slice(i, i + 3))) return str();
    const m = /^(True|False|None|-?\d+(?:\.\d+)?)/.exec(src.slice(i, i + 32));
    if (!m) fail('unexpected token');
    i += m[0].length;
    return m[0] === 'True' ? true : m[0] === 'False' ? false : m[0] === 'None' ? null : Number(m[0]);
  };
  return value();
}

/**
 * Text as compared: what a reader of the rendered Markdown sees. Links become their text (their targets are
 * dropped: a URL kept in place would split a sentence that a link runs through, so a snippet read across
 * the link could never match, whatever the extractor). An image is a picture, not text: its alt attribute
 * is not shown on the page the annotators read, so it counts as nothing. Markdown syntax, escapes,
 * invisible characters and whitespace are flattened. Applied to every extractor's output and to the
 * snippets alike.
 */
/** Escaped ASCII punctuation is parked in the Private Use Area (U+E000 + its code) while syntax is flattened. */
const ESCAPED = 0xe000;

export function normaliseForMatch(s) {
  return (
    s
      .normalize('NFKC')
      // Soft hyphens and zero-width break hints are invisible where they do not fall at a line end.
      .replace(/[\u00ad\u200b\u200c\u2060\ufeff]/g, '')
      .replace(/!\[((?:\\.|[^\]\\])*)\]\((?:\\.|[^)\s\\])*(?:\s+"[^"]*")?\)/g, ' ')
      // Link text may hold brackets in balanced pairs ("[[1]](…#cite_note-1)", CommonMark's footnote links).
      .replace(/(?<!\\)\[((?:\\.|\[(?:\\.|[^\]\\])*\](?!\()|[^\]\\])*)\]\((?:\\.|[^)\s\\])*(?:\s+"[^"]*")?\)/g, '$1')
      // An escaped character is that character, never syntax: it is set aside before emphasis marks are
      // stripped (else the backslash of "\\*" is read as the word boundary of an emphasis mark).
      .replace(/\\([\\`*_{}[\]()#+\-.!|>])/g, (_, c) => String.fromCharCode(ESCAPED + c.charCodeAt(0)))
      .replace(/^\s{0,3}(?:#{1,6}\s|>\s?|[-*+]\s|\d+\.\s)/gm, '')
      .replace(/(\*\*|__|`+|~~)/g, '')
      .replace(/(^|\W)[_*](\S)/g, '$1$2')
      .replace(/(\S)[_*](?=\W|$)/g, '$1')
      .replace(/[\ue000-\ue07f]/g, (c) => String.fromCharCode(c.charCodeAt(0) - ESCAPED))
      .replace(/\s*\|\s*/g, ' ')
      .replace(/[\u00a0\s]+/g, ' ')
      .trim()
      .toLowerCase()
  );
}
