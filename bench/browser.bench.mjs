// Browser tools: screenshots and Markdown conversions per second of a local page at concurrency 1, 2, 4
// and 8, ours (one warm Chromium, a fresh context per task prepared ahead, every connection through the
// guarded proxy, the artifact stored) against the naive script a user would write (launch a browser per
// request, screenshot, close), measured in the same run. Also: warm vs naive screenshot p50, memory
// after many consecutive tasks against after the first 100, and what is left behind after shutdown.
// Writes bench/browser-throughput.svg (throughput against concurrency). Loopback only.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import screenshotTool from '../dist/tools/browser.screenshot.js';
import markdownTool from '../dist/tools/browser.markdown.js';
import contentTool from '../dist/tools/browser.content.js';
import { loadConfig } from '../dist/src/config.js';
import { createLogger } from '../dist/src/logger.js';
import { ServiceScope } from '../dist/src/registry/services.js';
import { browserPoolService } from '../dist/src/browser/service.js';
import { findChromium } from '../dist/src/browser/chromium-path.js';
import { htmlToMarkdown } from '../dist/src/browser/markdown.js';
import { fmt, percentile } from './lib/load.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const CONCURRENCY = [1, 2, 4, 8];
const OURS_WINDOW_MS = 1_500;
const NAIVE_WINDOW_MS = 2_000;
const MEMORY_TASKS = 1_000;
const MEMORY_BUDGET_MS = 35_000;
// What a user's script passes: the flags this sandbox needs and nothing else.
const NAIVE_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];

const ARTICLE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Benchmark article</title>
<style>body{font:16px/1.5 sans-serif;max-width:760px;margin:2em auto;color:#222}nav a{margin-right:1em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px}pre{background:#f4f4f4;padding:1em}</style></head>
<body><header><nav><a href="/">Home</a><a href="/news">News</a><a href="/about">About</a></nav></header>
<main><article><h1>Benchmark article</h1>
${Array.from({ length: 12 }, (_, i) => `<h2>Section ${i + 1}</h2><p>${'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. '.repeat(3)}<a href="/s/${i}">more</a></p>`).join('\n')}
<table><tr><th>Name</th><th>Value</th></tr>${Array.from({ length: 10 }, (_, i) => `<tr><td>row ${i}</td><td>${i * 7}</td></tr>`).join('')}</table>
<pre><code class="language-js">const answer = 42;\nconsole.log(answer);</code></pre>
</article></main><footer>Footer text</footer></body></html>`;

function startPageServer() {
  const server = http.createServer((req, res) => {
    if (req.url === '/article') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(ARTICLE);
    } else {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Keeps `concurrency` calls of `task` in flight until `windowMs` has passed; every started call finishes. */
async function closedLoop(task, concurrency, windowMs) {
  const latencies = [];
  let errors = 0;
  const started = performance.now();
  const stopAt = started + windowMs;
  let last = started;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < stopAt) {
        const t0 = performance.now();
        try {
          await task();
          latencies.push(performance.now() - t0);
        } catch (err) {
          errors++;
          if (errors === 1) process.stderr.write(`  task failed: ${err?.message ?? err}\n`);
        }
        last = performance.now();
      }
    }),
  );
  const sorted = latencies.sort((a, b) => a - b);
  return { count: sorted.length, errors, perSecond: (sorted.length / (last - started)) * 1000, p50: percentile(sorted, 50) };
}

// ---- memory and leftovers (Linux /proc) ----

function procChildren() {
  const byParent = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (rest[0] === 'Z') continue;
      const ppid = Number(rest[1]);
      if (!byParent.has(ppid)) byParent.set(ppid, []);
      byParent.get(ppid).push(Number(name));
    } catch {
      // gone
    }
  }
  return byParent;
}

function descendants(root = process.pid) {
  const byParent = procChildren();
  const out = [];
  const todo = [root];
  while (todo.length) {
    for (const c of byParent.get(todo.pop()) ?? []) {
      out.push(c);
      todo.push(c);
    }
  }
  return out;
}

/** Proportional set size (shared pages split between sharers) of this process and all it started, in MiB. */
function treePssMiB() {
  let kb = 0;
  for (const pid of [process.pid, ...descendants()]) {
    try {
      const m = /^Pss:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      if (m) kb += Number(m[1]);
    } catch {
      // gone
    }
  }
  return kb / 1024;
}

// ---- the chart ----

function svgChart(series, title) {
  const W = 720;
  const H = 400;
  const m = { top: 48, right: 190, bottom: 52, left: 64 };
  const pw = W - m.left - m.right;
  const ph = H - m.top - m.bottom;
  const maxY = Math.max(...series.flatMap((s) => s.points.map((p) => p.y)), 1);
  const step = niceStep(maxY / 5);
  const top = Math.ceil((maxY * 1.05) / step) * step;
  const x = (i) => m.left + (CONCURRENCY.length === 1 ? pw / 2 : (i / (CONCURRENCY.length - 1)) * pw);
  const y = (v) => m.top + ph - (v / top) * ph;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${m.left}" y="24" font-size="15" font-weight="bold">${esc(title)}</text>`,
  ];
  for (let v = 0; v <= top + 1e-9; v += step) {
    parts.push(`<line x1="${m.left}" x2="${m.left + pw}" y1="${y(v)}" y2="${y(v)}" stroke="#e5e5e5"/>`);
    parts.push(`<text x="${m.left - 8}" y="${y(v) + 4}" text-anchor="end" fill="#555">${fmt(v, step < 1 ? 1 : 0)}</text>`);
  }
  CONCURRENCY.forEach((c, i) => parts.push(`<text x="${x(i)}" y="${m.top + ph + 18}" text-anchor="middle" fill="#555">${c}</text>`));
  parts.push(`<line x1="${m.left}" x2="${m.left + pw}" y1="${m.top + ph}" y2="${m.top + ph}" stroke="#888"/>`);
  parts.push(`<line x1="${m.left}" x2="${m.left}" y1="${m.top}" y2="${m.top + ph}" stroke="#888"/>`);
  parts.push(`<text x="${m.left + pw / 2}" y="${H - 12}" text-anchor="middle" fill="#333">concurrent tasks</text>`);
  parts.push(`<text transform="translate(18 ${m.top + ph / 2}) rotate(-90)" text-anchor="middle" fill="#333">tasks per second</text>`);
  series.forEach((s, k) => {
    const pts = s.points.map((p) => `${x(CONCURRENCY.indexOf(p.x)).toFixed(1)},${y(p.y).toFixed(1)}`).join(' ');
    parts.push(`<polyline points="${pts}" fill="none" stroke="${s.color}" stroke-width="2.5"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
    for (const p of s.points) parts.push(`<circle cx="${x(CONCURRENCY.indexOf(p.x)).toFixed(1)}" cy="${y(p.y).toFixed(1)}" r="3.5" fill="${s.color}"/>`);
    const ly = m.top + 10 + k * 22;
    parts.push(`<line x1="${W - m.right + 16}" x2="${W - m.right + 44}" y1="${ly}" y2="${ly}" stroke="${s.color}" stroke-width="2.5"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
    parts.push(`<text x="${W - m.right + 50}" y="${ly + 4}" fill="#222">${esc(s.name)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

function niceStep(raw) {
  const p = 10 ** Math.floor(Math.log10(raw || 1));
  for (const f of [1, 2, 2.5, 5, 10]) if (f * p >= raw) return f * p;
  return 10 * p;
}

function esc(s) {
  return String(s).replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]);
}

// ---- the run ----

export default {
  name: 'browser',
  title: 'Browser tools: warm pool vs a browser per request',
  async run() {
    const log = (line) => process.stderr.write(`${line}\n`);
    const loadAtStart = os.loadavg()[0];
    const savedTmp = process.env.TMPDIR;
    // Chromium profiles go to os.tmpdir(); a private one shows whether anything is left behind.
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'au-bench-browser-'));
    process.env.TMPDIR = tmp;
    const dataDir = path.join(tmp, 'data');
    const server = await startPageServer();
    const url = `http://127.0.0.1:${server.address().port}/article`;
    const executablePath = findChromium(process.env.CHROMIUM_PATH);
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', NETWORK_ALLOWLIST: '127.0.0.1/32', BROWSER_CONCURRENCY: String(Math.max(...CONCURRENCY)), SECRET: 'b'.repeat(40) });
    const scope = new ServiceScope(config, createLogger('silent'));
    const scopes = [scope];
    let taskNo = 0;
    const ctx = () => {
      const id = `task_bench${++taskNo}`;
      return { taskId: id, idempotencyKey: id, attempt: 1, signal: new AbortController().signal, config, log: createLogger('silent'), use: (d) => scope.use(d), progress: () => {} };
    };
    const shotInput = screenshotTool.input.parse({ url, width: 1280, height: 800 });
    const mdInput = markdownTool.input.parse({ url });
    const contentInput = contentTool.input.parse({ url });
    const ours = {
      screenshot: () => screenshotTool.run(ctx(), shotInput),
      markdown: () => markdownTool.run(ctx(), mdInput),
    };
    const naive = {
      async screenshot() {
        const browser = await chromium.launch({ executablePath, args: NAIVE_ARGS });
        try {
          const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
          await page.goto(url);
          fs.writeFileSync(path.join(tmp, `naive-${++taskNo}.png`), await page.screenshot());
        } finally {
          await browser.close();
        }
      },
      async markdown() {
        const browser = await chromium.launch({ executablePath, args: NAIVE_ARGS });
        try {
          const page = await browser.newPage();
          await page.goto(url);
          htmlToMarkdown(await page.content(), await page.title());
        } finally {
          await browser.close();
        }
      },
    };

    try {
      // Warm-up: the first launch and a few tasks, as a running service would have had.
      const { pool } = await scope.use(browserPoolService);
      await pool.warm();
      for (let i = 0; i < 5; i++) await ours.screenshot();
      await naive.screenshot();

      const results = { screenshot: { ours: {}, naive: {} }, markdown: { ours: {}, naive: {} } };
      for (const kind of ['screenshot', 'markdown']) {
        for (const c of CONCURRENCY) {
          results[kind].ours[c] = await closedLoop(ours[kind], c, OURS_WINDOW_MS);
          results[kind].naive[c] = await closedLoop(naive[kind], c, NAIVE_WINDOW_MS);
          log(`${kind} c=${c}: ours ${fmt(results[kind].ours[c].perSecond)}/s, naive ${fmt(results[kind].naive[c].perSecond)}/s`);
        }
      }

      await scope.close();

      // Memory: consecutive tasks (4 at a time, alternating screenshot and content) on a fresh pool, PSS
      // of the whole process tree.
      const memScope = new ServiceScope(config, createLogger('silent'));
      scopes.push(memScope);
      const memCtx = () => ({ ...ctx(), use: (d) => memScope.use(d) });
      const memPool = (await memScope.use(browserPoolService)).pool;
      await memPool.warm();
      let started = 0;
      let finished = 0;
      let after100 = NaN;
      const memStart = performance.now();
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (started < MEMORY_TASKS && performance.now() - memStart < MEMORY_BUDGET_MS) {
            started++;
            if (started % 2 === 0) await screenshotTool.run(memCtx(), shotInput);
            else await contentTool.run(memCtx(), contentInput);
            if (++finished === 100) after100 = treePssMiB();
          }
        }),
      );
      const afterAll = treePssMiB();
      const poolStats = memPool.stats();
      log(`memory: ${fmt(after100)} MiB after 100, ${fmt(afterAll)} MiB after ${finished} tasks`);
      await memScope.close();

      await new Promise((r) => server.close(r));
      for (let i = 0; i < 50 && descendants().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
      const leftoverProcesses = descendants().length;
      const leftoverProfiles = fs.readdirSync(tmp).filter((f) => f.startsWith('playwright')).length;

      // ---- report ----
      const best = (kind, who) => Math.max(...CONCURRENCY.map((c) => results[kind][who][c].perSecond));
      const rows = [];
      for (const kind of ['screenshot', 'markdown']) {
        for (const c of CONCURRENCY) {
          const o = results[kind].ours[c];
          const n = results[kind].naive[c];
          rows.push(`| ${kind} | ${c} | ${fmt(o.perSecond)} | ${fmt(n.perSecond)} | ${fmt(o.perSecond / n.perSecond)}× | ${fmt(o.p50, 0)} | ${fmt(n.p50, 0)} |${o.errors + n.errors ? ` ${o.errors}/${n.errors} errors` : ''}`);
        }
      }
      const shotRatio = best('screenshot', 'ours') / best('screenshot', 'naive');
      const mdRatio = best('markdown', 'ours') / best('markdown', 'naive');
      const p50Ratio = results.screenshot.naive[1].p50 / results.screenshot.ours[1].p50;
      const memGrowth = (afterAll / after100 - 1) * 100;

      const svg = svgChart(
        [
          { name: 'ours: screenshot', color: '#1f6feb', points: CONCURRENCY.map((c) => ({ x: c, y: results.screenshot.ours[c].perSecond })) },
          { name: 'ours: markdown', color: '#2da44e', points: CONCURRENCY.map((c) => ({ x: c, y: results.markdown.ours[c].perSecond })) },
          { name: 'naive: screenshot', color: '#cf222e', dashed: true, points: CONCURRENCY.map((c) => ({ x: c, y: results.screenshot.naive[c].perSecond })) },
          { name: 'naive: markdown', color: '#bf8700', dashed: true, points: CONCURRENCY.map((c) => ({ x: c, y: results.markdown.naive[c].perSecond })) },
        ],
        'Browser tasks per second against concurrency (higher is better)',
      );
      fs.writeFileSync(path.join(here, 'browser-throughput.svg'), svg);

      const scaled = finished < MEMORY_TASKS;
      return [
        `A local article page (${Math.round(ARTICLE.length / 1024)} KB, 1280×800) rendered by **ours** (the \`browser.screenshot\` and \`browser.markdown\` tools: one warm Chromium, a fresh context per task prepared ahead, every connection through the guarded proxy, the screenshot stored as an artifact) and by the **naive** script (launch Chromium, open the page, screenshot or convert with the same converter, close), both with \`${executablePath}\`, in a closed loop for ${OURS_WINDOW_MS / 1000} s (ours) / ${NAIVE_WINDOW_MS / 1000} s (naive) per point, same machine, same run. Load average at the start: ${loadAtStart.toFixed(1)} on ${os.availableParallelism()} CPUs.`,
        '',
        '![Browser tasks per second against concurrency](browser-throughput.svg)',
        '',
        '| task | concurrency | ours /s | naive /s | ours ÷ naive | ours p50 ms | naive p50 ms |',
        '|---|---:|---:|---:|---:|---:|---:|',
        ...rows,
        '',
        `- Best throughput: screenshots **${fmt(shotRatio)}×** the naive script (${fmt(best('screenshot', 'ours'))}/s vs ${fmt(best('screenshot', 'naive'))}/s), Markdown **${fmt(mdRatio)}×** (${fmt(best('markdown', 'ours'))}/s vs ${fmt(best('markdown', 'naive'))}/s). Goal ≥ 3×.`,
        `- Warm screenshot p50 ${fmt(results.screenshot.ours[1].p50, 0)} ms vs naive ${fmt(results.screenshot.naive[1].p50, 0)} ms: **${fmt(p50Ratio)}× faster**. Goal ≥ 2×.`,
        `- Memory (PSS of Node and every Chromium process, screenshot and content tasks alternating): ${fmt(after100, 0)} MiB after 100 tasks, ${fmt(afterAll, 0)} MiB after ${finished} (${memGrowth >= 0 ? '+' : ''}${fmt(memGrowth)}%; goal within 20%). The browser is replaced every 200 tasks; ${poolStats.launches} launches in this phase.${scaled ? ` Scaled down from ${MEMORY_TASKS} tasks to what fits in ${MEMORY_BUDGET_MS / 1000} s.` : ''}`,
        `- After shutdown: ${leftoverProcesses} leftover processes, ${leftoverProfiles} leftover Chromium profile directories.`,
      ].join('\n');
    } finally {
      for (const s of scopes) await s.close().catch(() => {});
      if (server.listening) server.close();
      if (savedTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = savedTmp;
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  },
};
