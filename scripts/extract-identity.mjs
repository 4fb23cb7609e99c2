// Byte-identity check for refactors of src/extract: converts the raw HTML of every page the markdown benches
// use (trafilatura's evaluation set, Mozilla Readability's test pages, the cleaning corpora's bench sample;
// found as the benches find them, never committed) with one build's htmlToMarkdown, and records every
// result field (markdown, title, source, metadata, word_count and, with `debug`, the removal trace).
// Two records are then compared page by page.
//
//   node scripts/extract-identity.mjs record <build root> <out.jsonl>   (build root holds src/extract/markdown.js,
//                                                                        e.g. dist of `npm run build`)
//   node scripts/extract-identity.mjs compare <a.jsonl> <b.jsonl>        (exit 1 when any page differs)
//
// To check a branch against main: build main into a temporary folder (git archive main | tar -x, link
// node_modules, npx tsc -p tsconfig.build.json --outDir …), record both, compare. EXTRACT_IDENTITY_STRIDE=k
// takes every k-th page (a quick look; the check itself uses all); EXTRACT_IDENTITY_PARTIAL=1 compares only the
// pages both records hold (while a record is still being written); EXTRACT_IDENTITY_DEBUG=0 records without the
// debug trace (for a change that adds to the trace: the results themselves must still be identical); EXTRACT_IDENTITY_FROM/TO record a slice of the
// page list (records of slices are concatenated before comparing). Raw HTML is decoded as the bench's page
// server has Chromium do it: UTF-8 when valid, else windows-1252.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { locateCorpus, loadCases } from '../bench/lib/trafilatura-corpus.mjs';
import { locateReadabilityCorpus, loadReadabilityCases } from '../bench/lib/readability-corpus.mjs';
import { locateCleaningCorpus, loadCleaningCases } from '../bench/lib/cleaning-corpus.mjs';

function decode(bytes) {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

async function pages() {
  const out = [];
  const cleanups = [];
  const traf = await locateCorpus();
  if ('skip' in traf) throw new Error(`trafilatura corpus: ${traf.skip}`);
  cleanups.push(traf.cleanup);
  for (const c of loadCases(traf.testsDir)) out.push({ id: `trafilatura:${c.url}`, file: c.file, url: c.url });
  const read = await locateReadabilityCorpus();
  if ('skip' in read) throw new Error(`readability corpus: ${read.skip}`);
  cleanups.push(read.cleanup);
  for (const c of loadReadabilityCases(read.pagesDir)) out.push({ id: `readability:${c.name}`, file: c.file, url: c.url });
  const clean = await locateCleaningCorpus();
  if ('skip' in clean) throw new Error(`cleaning corpus: ${clean.skip}`);
  cleanups.push(clean.cleanup);
  for (const c of loadCleaningCases(clean.root)) out.push({ id: `cleaning:${c.name}`, file: c.file, url: c.url });
  return { pages: out, cleanup: () => cleanups.forEach((f) => f()) };
}

async function record(buildRoot, outFile) {
  const { htmlToMarkdown } = await import(pathToFileURL(path.resolve(buildRoot, 'src/extract/markdown.js')).href);
  const { pages: list, cleanup } = await pages();
  const stride = Number(process.env.EXTRACT_IDENTITY_STRIDE ?? 1);
  const fd = fs.openSync(outFile, 'w');
  let n = 0;
  try {
    const [from, to] = [Number(process.env.EXTRACT_IDENTITY_FROM ?? 0), Number(process.env.EXTRACT_IDENTITY_TO ?? list.length)];
    for (let i = from; i < Math.min(to, list.length); i += stride) {
      const p = list[i];
      const html = decode(fs.readFileSync(p.file));
      let result;
      try {
        // debug: the trace of every rule's removals is compared too; it does not change what is removed.
        // EXTRACT_IDENTITY_DEBUG=0 records without it (a change to the trace itself is then compared away).
        result = htmlToMarkdown(html, '', 'main', { debug: process.env.EXTRACT_IDENTITY_DEBUG !== '0' });
      } catch (err) {
        result = { error: String(err?.message ?? err) };
      }
      fs.writeSync(fd, JSON.stringify({ id: p.id, result }) + '\n');
      if (++n % 100 === 0) process.stderr.write(`  ${n} pages\n`);
    }
  } finally {
    fs.closeSync(fd);
    cleanup();
  }
  process.stderr.write(`recorded ${n} pages to ${outFile}\n`);
}

function readRecord(file) {
  const map = new Map();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const { id, result } = JSON.parse(line);
    map.set(id, result);
  }
  return map;
}

function compare(aFile, bFile, partial = process.env.EXTRACT_IDENTITY_PARTIAL === '1') {
  const a = readRecord(aFile);
  const b = readRecord(bFile);
  let same = 0;
  const differ = [];
  for (const [id, ra] of a) {
    const rb = b.get(id);
    if (rb === undefined && partial) continue;
    if (rb === undefined) {
      differ.push(`${id}: missing in ${bFile}`);
      continue;
    }
    const fields = [...new Set([...Object.keys(ra), ...Object.keys(rb)])].filter((k) => JSON.stringify(ra[k]) !== JSON.stringify(rb[k]));
    if (fields.length === 0) same++;
    else differ.push(`${id}: ${fields.join(', ')}`);
  }
  for (const id of b.keys()) if (!a.has(id) && !partial) differ.push(`${id}: missing in ${aFile}`);
  console.log(`${same + differ.length} pages compared: ${same} identical in every field, ${differ.length} differ`);
  for (const d of differ.slice(0, 50)) console.log(`  ${d}`);
  return differ.length === 0;
}

const [mode, x, y] = process.argv.slice(2);
if (mode === 'record' && x && y) await record(x, y);
else if (mode === 'compare' && x && y) process.exitCode = compare(x, y) ? 0 : 1;
else {
  console.error('usage: extract-identity.mjs record <build root> <out.jsonl> | compare <a.jsonl> <b.jsonl>');
  process.exitCode = 2;
}
