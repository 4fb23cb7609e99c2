// site.crawl on a generated site of 2,000 pages on four loopback addresses (plus a fifth whose robots.txt
// sets a Crawl-delay), with a sitemap index, robots.txt rules, duplicate URLs, calendar and session-id
// traps, repeating segments, a query explosion, redirects and a redirect loop, 404s and slow pages
// (bench/lib/crawl-site.mjs, served from a child process). Measured in the same run: render false,
// render true, and a naive breadth-first Playwright crawler with the same politeness (robots.txt obeyed,
// 4 pages per host at once, URLs without fragments de-duplicated as strings). Counters come from the server.
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import robotsParserModule from 'robots-parser';
import { loadConfig } from '../dist/src/config.js';
import { createLogger } from '../dist/src/logger.js';
import { createRuntime } from '../dist/src/runtime.js';
import { findChromium } from '../dist/src/browser/chromium-path.js';

const dir = path.dirname(fileURLToPath(import.meta.url));
const PAGES = Number(process.env.CRAWL_BENCH_PAGES ?? 2000);
const RENDER_LIMIT = Number(process.env.CRAWL_BENCH_RENDER_LIMIT ?? 300);
/** Only the render: true rows (to iterate on rendering; the section then lacks the render: false rows). */
let LOAD_AT_START = '';
const RENDER_ONLY = process.env.CRAWL_BENCH_RENDER_ONLY === '1';
const HOSTS = ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4'];
const robotsParser = robotsParserModule.default ?? robotsParserModule;

function startSite() {
  const child = fork(path.join(dir, 'lib/crawl-site-server.mjs'), [String(PAGES), HOSTS.join(','), '127.0.0.5'], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ask = (m) => new Promise((resolve) => (child.once('message', resolve), child.send(m)));
  return new Promise((resolve) => child.once('message', ({ port }) => resolve({ port, ask, stop: () => child.send('stop') })));
}

/** The 1-minute load average now: every row records it at its start (the machine is shared). */
const loadNow = () => os.loadavg()[0].toFixed(1);

async function crawlWithService(rt, start, render, limit, formats = ['markdown', 'links']) {
  const load = loadNow();
  const heap0 = process.memoryUsage().rss;
  const t0 = performance.now();
  const { task } = await rt.engine.submit(
    'site.crawl',
    { url: start, same_site: false, limit, max_depth: 50, render, formats, sources: 'both' },
    { payer: { kind: 'local', id: 'bench' }, free: true },
  );
  const done = await rt.engine.waitFor(task.id, 30 * 60_000);
  const seconds = (performance.now() - t0) / 1000;
  if (done.status !== 'complete') throw new Error(`crawl ${done.status}: ${done.error}`);
  return { pages: done.result.pages, seconds, load, rssMb: Math.round(Math.max(process.memoryUsage().rss, heap0) / 2 ** 20), result: done.result };
}

/**
 * A breadth-first crawler a user would write with Playwright: robots.txt per host, at most 4 pages per host
 * at once over `workers` loops (16: pooled; 1: one page at a time, the plainest loop).
 */
async function naiveCrawl(start, limit, workers = 16) {
  const load = loadNow();
  // Timed from the launch: site.crawl's time includes its browser pool's launch too (nothing is warm).
  const t0 = performance.now();
  const browser = await chromium.launch({ executablePath: findChromium(process.env.CHROMIUM_PATH), args: ['--no-sandbox'] });
  const robots = new Map();
  const seen = new Set([start]);
  const queue = [{ url: start }];
  let crawled = 0;
  const perHost = new Map();
  const robotsFor = async (url) => {
    const origin = new URL(url).origin;
    if (!robots.has(origin)) robots.set(origin, robotsParser(`${origin}/robots.txt`, await (await fetch(`${origin}/robots.txt`)).text()));
    return robots.get(origin);
  };
  const context = await browser.newContext();
  const worker = async () => {
    for (;;) {
      const i = queue.findIndex((q) => (perHost.get(new URL(q.url).host) ?? 0) < 4);
      if (i < 0) {
        if (queue.length === 0 && [...perHost.values()].every((n) => n === 0)) return;
        await new Promise((r) => setTimeout(r, 5));
        continue;
      }
      if (crawled >= limit) return;
      const { url } = queue.splice(i, 1)[0];
      if (!(await robotsFor(url)).isAllowed(url, 'naive')) continue;
      const host = new URL(url).host;
      perHost.set(host, (perHost.get(host) ?? 0) + 1);
      crawled++;
      const page = await context.newPage();
      try {
        await page.goto(url, { waitUntil: 'load', timeout: 15_000 });
        const links = await page.$$eval('a[href]', (as) => as.map((a) => a.href));
        for (const l of links) {
          const u = l.split('#')[0];
          if (!seen.has(u) && /^http:\/\/127\.0\.0\.\d+:/.test(u)) {
            seen.add(u);
            queue.push({ url: u });
          }
        }
      } catch {
        // a failed page counts as crawled
      } finally {
        await page.close();
        perHost.set(host, perHost.get(host) - 1);
      }
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  const seconds = (performance.now() - t0) / 1000;
  await browser.close();
  return { pages: crawled, seconds, load };
}

export default {
  name: 'crawl',
  title: 'site.crawl on a generated 2,000-page site (5 loopback hosts, traps, robots.txt) vs a naive Playwright crawler',
  async run() {
    LOAD_AT_START = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(', ');
    const site = await startSite();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-crawl-bench-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      SECRET: 'b'.repeat(40),
      NETWORK_ALLOWLIST: '127.0.0.0/8',
      WORKER_CONCURRENCY: '32',
      POLL_INTERVAL_MS: '50',
    });
    const rt = await createRuntime(config, { log: createLogger('silent') });
    const start = `http://${HOSTS[0]}:${site.port}/`;
    const rows = [];
    try {
      if (!RENDER_ONLY) {
        const links = await crawlWithService(rt, start, false, 10_000, ['links']);
        rows.push(['site.crawl render: false, formats links', links, await site.ask('stats')]);
        await site.ask('reset');
        const plain = await crawlWithService(rt, start, false, 10_000);
        const plainStats = await site.ask('stats');
        rows.push(['site.crawl render: false, formats markdown + links', plain, plainStats]);
        await site.ask('reset');
      }
      const rendered = await crawlWithService(rt, start, true, RENDER_LIMIT, ['links']);
      const renderedStats = await site.ask('stats');
      rows.push([`site.crawl render: true, formats links (limit ${RENDER_LIMIT})`, rendered, renderedStats]);
      await site.ask('reset');
      await site.ask('reset');
      const naive = await naiveCrawl(start, RENDER_LIMIT);
      rows.push([`naive Playwright BFS, 16 loops (limit ${RENDER_LIMIT})`, naive, await site.ask('stats')]);
      await site.ask('reset');
      const sequential = await naiveCrawl(start, RENDER_LIMIT, 1);
      rows.push([`naive Playwright BFS, one page at a time (limit ${RENDER_LIMIT})`, sequential, await site.ask('stats')]);
    } finally {
      await rt.close();
      site.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    const table = rows.map(
      ([name, r, s]) =>
        `| ${name} | ${r.pages} | ${r.seconds.toFixed(1)} | ${(r.pages / r.seconds).toFixed(1)} | ${s.disallowed} | ${s.duplicates} | ${s.trap} | ${r.rssMb ?? '–'} | ${r.load} |`,
    );
    const plain = RENDER_ONLY ? undefined : rows[1][1].result;
    const byName = (prefix) => rows.find(([name]) => name.startsWith(prefix))[1];
    const rendered = byName('site.crawl render: true');
    const speedup = (naive) => (rendered.pages / rendered.seconds / (naive.pages / naive.seconds)).toFixed(1);
    return [
      `Site: ${PAGES} pages over ${HOSTS.length} loopback addresses plus one with \`Crawl-delay: 0.2\`, a sitemap index with a gzip child, \`Disallow: /private/\` linked from every page, duplicate spellings of every link (tracking parameters, host case, trailing slash, fragment), and on every tenth page a calendar, a session-id shop, repeating segments, a query explosion, a redirect, a redirect loop and a 404; one page in 97 answers after 100 ms. SQLite, 32 worker slots, one process; \`npm run build && node bench/run.mjs crawl\`. Every crawler is timed from nothing: site.crawl's time includes its browser pool's launch, the naive crawler's its \`chromium.launch()\`. Load is the 1-minute load average as each row started (2 cores, shared).`,
      '',
      '| crawler | pages | seconds | pages/s | disallowed requests | duplicate fetches | trap pages fetched | RSS MB | load at start |',
      '|---|---|---|---|---|---|---|---|---|',
      ...table,
      '',
      `render: true against the naive crawler: ${speedup(byName('naive Playwright BFS, one page at a time'))}× one page at a time, ${speedup(byName('naive Playwright BFS, 16 loops'))}× with 16 loops (load average at the start ${LOAD_AT_START}).`,
      '',
      ...(plain
        ? [
            `render: false skipped ${plain.skipped.robots} disallowed URLs, ${plain.skipped.duplicates} duplicates and ${plain.skipped.traps} trap URLs (${Object.entries(
              plain.traps,
            )
              .map(([k, v]) => `${k} ${v}`)
              .join(
                ', ',
              )}). The naive crawler de-duplicates URL strings only, so it fetches every spelling of a page and walks into the traps until its limit.`,
          ]
        : []),
    ].join('\n');
  },
};
