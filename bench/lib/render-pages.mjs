// Shared by the Markdown quality benches: pages served from loopback and rendered in Chromium with scripts
// off (archived pages' scripts would only fetch the dead web) and every non-loopback request aborted, then
// serialised by the browser tool's own page script, read the way the browser tools read a loaded page
// (LoadedPage: a meta refresh after load to a page the archive lacks leaves the page itself); and one extractor run over the rendered pages in
// worker threads, a fresh one per chunk (jsdom holds on to memory, one heap would not last a corpus).
import fs from 'node:fs';
import http from 'node:http';
import { Worker } from 'node:worker_threads';
import { chromium } from 'playwright-core';
import { findChromium } from '../../dist/src/browser/chromium-path.js';
import { serialiseVisibleDocument } from '../../dist/src/browser/page-scripts.js';
import { LoadedPage } from '../../dist/src/browser/loaded-page.js';
import { RenderBudget } from '../../dist/src/browser/navigate.js';

const CONCURRENCY = 2;
const PAGE_TIMEOUT_MS = 15_000;

/**
 * Serves case i's raw bytes at /i. The archived files lost the server's Content-Type header, and many UTF-8
 * pages declare no charset in their markup, which Chromium would then read as windows-1252; valid UTF-8 is
 * served as such (what their servers sent), anything else is left to the page's own declaration.
 */
function serve(cases, readFile) {
  const server = http.createServer((req, res) => {
    const i = Number(req.url?.slice(1));
    if (!Number.isInteger(i) || !cases[i]) return void res.writeHead(404).end();
    const bytes = readFile(cases[i].file);
    res.writeHead(200, { 'Content-Type': `text/html${isUtf8(bytes) ? '; charset=utf-8' : ''}` });
    res.end(bytes);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function isUtf8(bytes) {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * renderAll of the cases' files, kept in `cacheFile` (when given) between runs: a cache whose page count
 * differs from the cases' is rendered again. For iterating on an extractor: render once, rerun the rest.
 */
export async function renderCached(cases, cacheFile) {
  if (cacheFile && fs.existsSync(cacheFile)) {
    const cached = JSON.parse(fs.readFileSync(cacheFile, 'utf8'));
    if (cached.length === cases.length) return cached;
  }
  const rendered = await renderAll(cases, (f) => fs.readFileSync(f));
  if (cacheFile) fs.writeFileSync(cacheFile, JSON.stringify(rendered));
  return rendered;
}

/** cases: [{ url, file }]; readFile(file) → bytes. Rendered pages ({ html, title, url }) in case order. */
export async function renderAll(cases, readFile) {
  const server = await serve(cases, readFile);
  const origin = `http://127.0.0.1:${server.address().port}`;
  const browser = await chromium.launch({
    executablePath: findChromium(),
    // Belt and braces with the route below: no name resolves, so nothing can leave the machine.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
  });
  const rendered = new Array(cases.length);
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        const context = await browser.newContext({ javaScriptEnabled: false, serviceWorkers: 'block' });
        await context.route('**/*', (route) => (route.request().url().startsWith(origin) ? route.continue() : route.abort()));
        const page = await context.newPage();
        while (next < cases.length) {
          const i = next++;
          try {
            const budget = new RenderBudget(PAGE_TIMEOUT_MS);
            const response = await page.goto(`${origin}/${i}`, { waitUntil: 'load', timeout: PAGE_TIMEOUT_MS });
            const opened = { url: page.url(), status: response?.status() ?? null, contentType: 'text/html', headers: {} };
            // The kept copy is the file served (decoded as served: UTF-8 when valid, else as Latin-1 bytes).
            const kept = async () => {
              const bytes = readFile(cases[i].file);
              return isUtf8(bytes) ? bytes.toString('utf8') : bytes.toString('latin1');
            };
            const loaded = new LoadedPage(page, opened, { state: 'load', budget, kept, refused: (url) => new Error(`refused: ${url}`) });
            loaded.hold(opened);
            try {
              rendered[i] = await loaded.evaluate(serialiseVisibleDocument, 30_000);
            } finally {
              loaded.stop();
            }
          } catch (err) {
            process.stderr.write(`  page ${i} (${cases[i].url}) failed to render: ${err.message.split('\n')[0]}\n`);
          }
        }
        await context.close();
      }),
    );
  } finally {
    await browser.close();
    server.close();
  }
  return rendered;
}

/** Pages per worker: each chunk of an extractor's pass runs in a fresh worker thread (see markdown-extract-worker). */
const CHUNK_PAGES = 100;

/** One extractor over the given pages, chunk by chunk in fresh workers; outputs in page order. */
export async function runExtractor(name, docs) {
  const outputs = [];
  let failures = 0,
    ms = 0;
  for (let at = 0; at < docs.length; at += CHUNK_PAGES) {
    const chunk = docs.slice(at, at + CHUNK_PAGES);
    const result = await new Promise((resolve, reject) => {
      const worker = new Worker(new URL('./markdown-extract-worker.mjs', import.meta.url), { workerData: { name, docs: chunk } });
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => code !== 0 && reject(new Error(`${name}: worker exited with code ${code}`)));
    });
    outputs.push(...result.outputs);
    failures += result.failures;
    ms += result.ms;
  }
  return { outputs, failures, ms };
}
