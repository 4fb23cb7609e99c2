// The extractors the markdown bench compares, each a function of one rendered page ({ html, title, url }):
// ours = htmlToMarkdown (what browser.markdown's render() calls); baselines = plain @mozilla/readability in
// jsdom + turndown, the whole body through turndown, and defuddle (markdown mode), installed into a temp folder at bench time.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { JSDOM, VirtualConsole } from 'jsdom';
import { Readability } from '@mozilla/readability';
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';
import { htmlToMarkdown } from '../../dist/src/extract/markdown.js';

export const OURS = 'browser.markdown (ours, content: main)';

function turndown() {
  const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  td.use(gfm);
  td.remove(['script', 'style', 'noscript', 'template']);
  return td;
}

/** The defuddle version the bench installs: a baseline only, never a dependency of the project. */
const DEFUDDLE = 'defuddle@0.19.4';

/**
 * defuddle's constructor, or the reason it is not there. It is installed with npm into a temp folder at
 * bench time (BENCH_DEFUDDLE_DIR names a folder where it is installed already); the folder is then put in
 * BENCH_DEFUDDLE_DIR, so the worker threads (which inherit the environment) load it without installing again.
 */
export async function loadDefuddle() {
  try {
    let dir = process.env.BENCH_DEFUDDLE_DIR;
    if (!dir) {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-defuddle-'));
      execFileSync('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', DEFUDDLE], {
        stdio: 'ignore',
        timeout: 300_000,
      });
      process.env.BENCH_DEFUDDLE_DIR = dir;
    }
    const entry = path.join(dir, 'node_modules', 'defuddle', 'dist', 'node.js');
    return { Defuddle: (await import(pathToFileURL(entry).href)).Defuddle };
  } catch (err) {
    return { reason: err.message };
  }
}

/** @returns {Promise<{ name: string, run: (doc: { html: string, title: string, url: string }) => string | Promise<string> }[]>} */
export async function extractors({ withBaselines = true } = {}) {
  const td = turndown();
  const quiet = new VirtualConsole();
  // BENCH_MARKDOWN_OFF=rule,rule switches extraction steps and rules off (names: RULE_NAMES in src/extract/steps.ts), to measure what each is worth.
  const off = (process.env.BENCH_MARKDOWN_OFF ?? '').split(',').filter(Boolean);
  // BENCH_MARKDOWN_TRACE=file appends, per page, which step or rule removed or chose which block (htmlToMarkdown's debug trace)
  // as one JSON line { url, source, trace } to that file.
  const traceFile = process.env.BENCH_MARKDOWN_TRACE;
  const ours = (doc) => {
    const result = htmlToMarkdown(doc.html, doc.title, 'main', { off, debug: Boolean(traceFile) });
    if (traceFile) fs.appendFileSync(traceFile, JSON.stringify({ url: doc.url, source: result.source, trace: result.trace }) + '\n');
    return result.markdown;
  };
  const list = [{ name: OURS, run: ours }];
  if (!withBaselines) return list;
  list.push(
    {
      name: '@mozilla/readability + turndown (jsdom)',
      run: (doc) => {
        const dom = new JSDOM(doc.html, { url: doc.url, virtualConsole: quiet });
        const article = new Readability(dom.window.document).parse();
        dom.window.close();
        return article?.content ? td.turndown(article.content) : '';
      },
    },
    {
      name: 'whole body + turndown',
      run: (doc) => {
        const dom = new JSDOM(doc.html, { url: doc.url, virtualConsole: quiet });
        const out = td.turndown(dom.window.document.body?.innerHTML ?? '');
        dom.window.close();
        return out;
      },
    },
  );
  // BENCH_MARKDOWN_SKIP_DEFUDDLE=1: defuddle in jsdom takes seconds a page on a loaded machine; a quick run skips it.
  const { Defuddle } = process.env.BENCH_MARKDOWN_SKIP_DEFUDDLE === '1' ? {} : await loadDefuddle();
  if (Defuddle) {
    list.push({
      name: 'defuddle (markdown)',
      run: async (doc) => {
        const dom = new JSDOM(doc.html, { url: doc.url, virtualConsole: quiet });
        try {
          return (await Defuddle(dom, doc.url, { markdown: true })).content ?? '';
        } finally {
          dom.window.close();
        }
      },
    });
  }
  return list;
}
