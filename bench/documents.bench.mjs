// Documents → Markdown: the PDF, DOCX and XLSX readers behind browser.markdown against what a Node user
// would pick, on a corpus rebuilt at bench time (lib/document-corpus.mjs): articles from trafilatura's
// evaluation corpus (Apache-2.0) printed by Chromium in one, two and three columns and in two positioned
// layouts whose content-stream order is not the reading order (a CSS-grid pair of columns and a sidebar,
// the right-hand part first in the source), typeset by LaTeX in two columns (running heads, footnotes,
// hyphenation; Debian texlive), converted to DOCX by pandoc; an XLSX workbook built here; a 100-page PDF
// for speed; and pdf.js's own test PDFs (mozilla/pdf.js, Apache-2.0, from a local git mirror:
// BENCH_PDFJS_GIT or /work/.mirror/mozilla+pdf.js/repo) for robustness: no crash, no hang, text out.
//
// Baselines in the same run: pdf-parse (devDependency), pdf.js text in content-stream order, and
// @opendocsg/pdf2md (a PDF-to-Markdown package, MIT), installed into a temp folder at bench time.
// BENCH_DOCS_ARTICLES=n sets the number of articles (default 24); BENCH_DOCS_PDFJS_STRIDE=k takes every
// k-th pdf.js test file (default 8).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { PDFDocument } from 'pdf-lib';
import { chromium } from 'playwright-core';
import { findChromium } from '../dist/src/browser/chromium-path.js';
import { readPdf } from '../dist/src/extract/document/pdf/read-pdf.js';
import { readDocx } from '../dist/src/extract/document/docx.js';
import { readXlsx } from '../dist/src/extract/document/spreadsheet.js';
import { makeXlsx } from '../dist/test/support/document-fixtures.js';
import { articleBlocks, haveCommand, latexSource, layoutHtml, runPandocDocx, runPdflatex, truthText } from './lib/document-corpus.mjs';
import { headingRecall, orderSimilarity, tokenF1, tokens } from './lib/document-scores.mjs';
import { loadCases, locateCorpus } from './lib/trafilatura-corpus.mjs';

const ARTICLES = Number(process.env.BENCH_DOCS_ARTICLES ?? 24);
const PDFJS_STRIDE = Number(process.env.BENCH_DOCS_PDFJS_STRIDE ?? 8);
const PDFJS_MIRROR = process.env.BENCH_PDFJS_GIT ?? '/work/.mirror/mozilla+pdf.js/repo';
const PER_FILE_TIMEOUT_MS = 30_000;

async function pdfjsPlain(bytes) {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 }).promise;
  let text = '';
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    for (const item of content.items) text += ('str' in item ? item.str : '') + (item.hasEOL ? '\n' : ' ');
    text += '\n\n';
  }
  await doc.destroy();
  return text;
}

async function pdfParse(bytes) {
  const { PDFParse } = await import('pdf-parse');
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

/** @opendocsg/pdf2md installed into a temp folder; undefined when npm cannot install it. */
function installPdf2md() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdf2md-'));
  try {
    execFileSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--silent', '@opendocsg/pdf2md@0.3'], { stdio: 'ignore', timeout: 180_000 });
    const pkg = path.join(dir, 'node_modules/@opendocsg/pdf2md');
    const version = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')).version;
    return { dir, version, load: async () => (await import(pathToFileURL(path.join(pkg, 'lib/pdf2md.js')).href)).default };
  } catch {
    fs.rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

async function timed(fn) {
  const t = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t };
}

const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);
const f3 = (x) => (Number.isFinite(x) ? x.toFixed(3) : '—');

/** Builds the article corpus: per article, the clean blocks and a title. */
async function articles() {
  const corpus = await locateCorpus();
  if ('skip' in corpus) return { skip: corpus.skip };
  const cases = loadCases(corpus.testsDir);
  const out = [];
  for (const c of cases) {
    if (out.length >= ARTICLES) break;
    let html;
    try {
      html = fs.readFileSync(c.file, 'utf8');
    } catch {
      continue;
    }
    const blocks = articleBlocks(html);
    const text = blocks.map((b) => b.text).join(' ');
    const words = text.split(' ').length;
    const latin = (text.match(/[A-Za-z\u00c0-\u00ff]/g) ?? []).length / Math.max(1, text.replace(/[\s\d\p{P}]/gu, '').length);
    const headings = blocks.filter((b) => b.kind === 'h');
    // Articles with a structure to recover: long enough for several columns, a few headings, Latin script
    // (LaTeX and the fonts here cover it).
    if (words < 500 || words > 4000 || headings.length < 2 || latin < 0.97) continue;
    const first = blocks[0]?.kind === 'h' && blocks[0].level === 1 ? blocks.shift() : undefined;
    out.push({ title: first?.text ?? `Article ${out.length + 1}`, blocks, url: c.url });
  }
  corpus.cleanup();
  return { list: out, origin: corpus.origin };
}

function scoreText(truth, truthHeadings, markdown) {
  const t = tokens(truth);
  const g = tokens(markdown);
  return { f1: tokenF1(t, g), order: orderSimilarity(t, g), headings: headingRecall(truthHeadings, markdown) };
}

/** Runs fn(file) for each pdf.js test file in a worker, restarting it after a timeout (a hang). */
async function robustness(files, workerUrl) {
  const results = [];
  let worker;
  const start = () => {
    worker = new Worker(workerUrl);
    worker.unref();
  };
  start();
  for (const file of files) {
    const result = await new Promise((resolve) => {
      const timer = setTimeout(() => {
        void worker.terminate();
        start();
        resolve({ file, outcome: 'timeout' });
      }, PER_FILE_TIMEOUT_MS);
      const onMessage = (m) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        resolve({ file, ...m });
      };
      const onError = (err) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        start();
        resolve({ file, outcome: 'crash', error: String(err) });
      };
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.postMessage(file);
    });
    results.push(result);
  }
  await worker.terminate();
  return results;
}

export default {
  name: 'documents',
  title: 'Documents: PDF, DOCX and XLSX to Markdown against pdf-parse, pdf.js text order and pdf2md',
  async run() {
    const lines = [];
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-bench-'));
    const corpus = await articles();
    if ('skip' in corpus) return `Skipped: ${corpus.skip}`;
    const pdf2md = installPdf2md();
    const pdf2mdFn = pdf2md ? await pdf2md.load() : undefined;
    const systems = {
      ours: async (bytes) => (await readPdf(bytes)).markdown,
      'pdf-parse': pdfParse,
      'pdf.js text order': pdfjsPlain,
      ...(pdf2mdFn ? { [`pdf2md ${pdf2md.version}`]: async (bytes) => pdf2mdFn(new Uint8Array(bytes)) } : {}),
    };
    const browser = await chromium.launch({ executablePath: findChromium(process.env.CHROMIUM_PATH), args: ['--no-sandbox'] });
    const page = await browser.newPage();
    const docs = [];
    let overflowed = 0;
    for (const [i, a] of corpus.list.entries()) {
      for (const layout of ['one', 'two', 'three', 'grid', 'sidebar']) {
        const { html, truth, pages } = layoutHtml(layout, a.title, a.blocks);
        await page.setContent(html);
        const bytes = await page.pdf({ format: 'A4', preferCSSPageSize: true });
        if (pages !== undefined && (await PDFDocument.load(bytes)).getPageCount() !== pages) {
          overflowed++;
          continue;
        }
        docs.push({
          kind: `Chromium ${layout}`,
          index: i,
          bytes,
          truth: truthText(a.title, truth),
          headings: [a.title, ...truth.filter((b) => b.kind === 'h').map((b) => b.text)],
        });
      }
    }
    const latex = haveCommand('pdflatex');
    if (latex) {
      for (const [i, a] of corpus.list.entries()) {
        const dir = fs.mkdtempSync(path.join(work, 'tex-'));
        const { tex, truth } = latexSource(a.title, a.blocks);
        try {
          const bytes = runPdflatex(dir, tex);
          docs.push({
            kind: 'LaTeX two-column',
            index: i,
            bytes,
            truth: truthText(a.title, truth),
            headings: [a.title, ...truth.filter((b) => b.kind === 'h').map((b) => b.text)],
          });
        } catch {
          // a source LaTeX refuses (an odd character): left out, counted below
        }
      }
    }
    // A 100-page text PDF: the articles one after another (repeated as needed), printed in one column.
    const longBlocks = [];
    while (longBlocks.reduce((n, b) => n + b.text.split(' ').length, 0) < 70_000)
      for (const a of corpus.list) longBlocks.push({ kind: 'h', level: 2, text: a.title }, ...a.blocks);
    const longHtml = layoutHtml('one', 'Collected Articles', longBlocks).html;
    await page.setContent(longHtml);
    let hundred = await page.pdf({ format: 'A4', preferCSSPageSize: true, pageRanges: '1-100' });
    await browser.close();

    // Score every system on every PDF.
    const rows = new Map();
    for (const doc of docs) {
      const pages = (await readPdf(doc.bytes)).pages;
      for (const [name, fn] of Object.entries(systems)) {
        let got = '';
        let ms = 0;
        try {
          ({ value: got, ms } = await timed(() => fn(doc.bytes)));
        } catch {
          got = '';
        }
        const s = scoreText(doc.truth, doc.headings, got);
        const key = `${doc.kind}\u0000${name}`;
        const row = rows.get(key) ?? { kind: doc.kind, name, f1: [], order: [], headings: [], msPerPage: [], half: [[], []] };
        row.f1.push(s.f1);
        row.order.push(s.order);
        if (s.headings !== undefined && (name === 'ours' || name.startsWith('pdf2md'))) row.headings.push(s.headings);
        row.msPerPage.push(ms / pages);
        row.half[doc.index % 2].push(s.order);
        rows.set(key, row);
      }
    }
    const latexNote = latex
      ? `${docs.filter((d) => d.kind.startsWith('LaTeX')).length} LaTeX PDFs (pdflatex, article twocolumn, myheadings, footnotes)`
      : 'no LaTeX (pdflatex not installed)';
    lines.push(
      `Corpus: ${corpus.list.length} articles from trafilatura's evaluation corpus (${corpus.origin}; 500–4,000 words, ≥ 2 headings, Latin script), each printed by Chromium in 5 layouts (${overflowed} grid/sidebar files left out because a column overflowed its page, which would move text across pages), plus ${latexNote}. ` +
        'Truth: the clean HTML text (title, headings, paragraphs, list items; LaTeX: footnote text after its paragraph). ' +
        'F1 over word tokens; order = normalised indel similarity of the word sequences (1 − indel/(|a|+|b|)); heading recall = truth headings found as Markdown heading lines (Markdown outputs only). Means per document.',
      '',
      '| PDFs | system | docs | text F1 | reading order | order, odd / even articles | heading recall | ms/page |',
      '|---|---|---:|---:|---:|---:|---:|---:|',
    );
    for (const row of rows.values()) {
      lines.push(
        `| ${row.kind} | ${row.name} | ${row.f1.length} | ${f3(mean(row.f1))} | ${f3(mean(row.order))} | ${f3(mean(row.half[1]))} / ${f3(mean(row.half[0]))} | ${row.headings.length ? f3(mean(row.headings)) : '—'} | ${mean(row.msPerPage).toFixed(1)} |`,
      );
    }

    // Speed: 100 pages.
    const hundredPages = (await readPdf(hundred)).pages;
    const speed = [];
    for (const [name, fn] of Object.entries(systems)) {
      const { ms } = await timed(() => fn(hundred));
      speed.push(`${name} ${(ms / 1000).toFixed(2)} s`);
    }
    hundred = undefined;
    lines.push('', `A ${hundredPages}-page text PDF (the articles in one column): ${speed.join(', ')}. Goal: ours under 10 s.`);

    // DOCX by pandoc and an XLSX workbook: every block / cell present, in order.
    const docxScores = [];
    if (haveCommand('pandoc')) {
      for (const a of corpus.list) {
        const dir = fs.mkdtempSync(path.join(work, 'docx-'));
        const { html, truth } = layoutHtml('one', a.title, a.blocks);
        try {
          const bytes = runPandocDocx(dir, html);
          const { value, ms } = await timed(() => readDocx(bytes));
          const truthBlocks = [a.title, ...truth.map((b) => b.text)];
          const s = scoreText(truthText(a.title, truth), [a.title, ...truth.filter((b) => b.kind === 'h').map((b) => b.text)], value.markdown);
          // Every block in order: each block's words found as a run in the output, each after the previous.
          const flat = tokens(value.markdown).join(' ');
          let at = 0;
          let inOrder = 0;
          for (const block of truthBlocks) {
            const found = flat.indexOf(tokens(block).join(' '), at);
            if (found >= 0) {
              inOrder++;
              at = found;
            }
          }
          docxScores.push({ ...s, blocks: truthBlocks.length, inOrder, ms });
        } catch {
          // pandoc refused this one
        }
      }
      lines.push(
        '',
        `DOCX (pandoc ${execFileSync('pandoc', ['--version']).toString().split('\n')[0].split(' ')[1]} from the one-column HTML), ${docxScores.length} files: ` +
          `blocks present in order ${docxScores.reduce((n, s) => n + s.inOrder, 0)} / ${docxScores.reduce((n, s) => n + s.blocks, 0)}, ` +
          `text F1 ${f3(mean(docxScores.map((s) => s.f1)))}, order ${f3(mean(docxScores.map((s) => s.order)))}, heading recall ${f3(mean(docxScores.map((s) => s.headings ?? 1)))}, ${mean(docxScores.map((s) => s.ms)).toFixed(0)} ms per file.`,
      );
    } else {
      lines.push('', 'DOCX: pandoc not installed, skipped.');
    }
    const sheets = [0, 1, 2].map((s) => ({
      name: `Sheet ${s + 1}`,
      rows: Array.from({ length: 300 }, (_, r) => Array.from({ length: 6 }, (_, c) => (c % 2 ? r * 7 + c + s : `s${s}r${r}c${c}`))),
    }));
    const xlsx = makeXlsx(sheets);
    const { value: book, ms: xlsxMs } = await timed(() => readXlsx(xlsx));
    const cells = sheets.flatMap((s) => s.rows.flat().map(String));
    const flatBook = book.markdown.split(/[\s|]+/).filter(Boolean);
    let at = 0;
    let cellsInOrder = 0;
    for (const cell of cells) {
      const found = flatBook.indexOf(cell, at);
      if (found >= 0) {
        cellsInOrder++;
        at = found + 1;
      }
    }
    lines.push(`XLSX (3 sheets × 300 rows × 6 cells, built here): cells present in order ${cellsInOrder} / ${cells.length}, ${xlsxMs.toFixed(0)} ms.`);

    // Robustness on pdf.js's test PDFs.
    if (fs.existsSync(PDFJS_MIRROR)) {
      const listing = execFileSync('git', ['--git-dir', PDFJS_MIRROR, 'ls-tree', '-r', '-l', 'HEAD', 'test/pdfs'], { maxBuffer: 1 << 26 })
        .toString()
        .split('\n')
        .map((l) => /^\S+ blob (\S+)\s+(\d+)\t(.*\.pdf)$/i.exec(l))
        .filter((m) => m && Number(m[2]) < 2_000_000);
      const picked = listing.filter((_, i) => i % PDFJS_STRIDE === 0);
      const dir = fs.mkdtempSync(path.join(work, 'pdfjs-'));
      const files = [];
      for (const m of picked) {
        try {
          const bytes = execFileSync('git', ['--git-dir', PDFJS_MIRROR, 'cat-file', 'blob', m[1]], { maxBuffer: 1 << 26 });
          if (!bytes.subarray(0, 1024).includes('%PDF-')) continue; // a Git LFS pointer or a link file
          const file = path.join(dir, path.basename(m[3]));
          fs.writeFileSync(file, bytes);
          files.push(file);
        } catch {
          // object absent from the mirror
        }
      }
      const results = await robustness(files, new URL('./lib/document-robustness-worker.mjs', import.meta.url));
      const count = (o) => results.filter((r) => r.outcome === o).length;
      const withText = results.filter((r) => r.outcome === 'ok' && r.chars > 0).length;
      const ocr = results.filter((r) => r.outcome === 'ok' && r.needsOcr).length;
      lines.push(
        '',
        `pdf.js test PDFs (every ${PDFJS_STRIDE}th of the mirror's test/pdfs under 2 MB, ${files.length} files): ${count('ok')} read, ${withText} with text, ${ocr} said needs_ocr, ` +
          `${count('refused')} refused with an input error (encrypted, broken), ${count('crash')} crashed the worker, ${count('timeout')} hung past ${PER_FILE_TIMEOUT_MS / 1000} s, ${count('error')} other errors.`,
      );
      const odd = results.filter((r) => r.outcome !== 'ok' && r.outcome !== 'refused').slice(0, 8);
      for (const r of odd) lines.push(`- ${path.basename(r.file)}: ${r.outcome}${r.error ? ` (${String(r.error).slice(0, 120)})` : ''}`);
    } else {
      lines.push('', `pdf.js test PDFs: no mirror at ${PDFJS_MIRROR}, skipped.`);
    }
    if (pdf2md) fs.rmSync(pdf2md.dir, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
    return lines.join('\n');
  },
};
