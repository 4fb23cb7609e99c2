// Issue 30: what scroll_to_load brings into a capture of a lazy-loading page (an infinite list fetched as
// its end comes into view, and images with loading=lazy far below the fold): list items in the Markdown and
// images fetched for a full-page screenshot, with and without it. And what the actions code costs a task
// that does not use it: CPU time per screenshot and per Markdown task (Node and Chromium together) of this
// tree's build against a copy with that per-task code switched off, interleaved blocks in one run.
// Loopback only.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildRelease } from './lib/release-build.mjs';
import { tempDir } from './lib/processes.mjs';
import { CpuMeter } from './lib/proc-cpu.mjs';

const BATCHES = 8;
const PER_BATCH = 5;
const IMAGES = 10;
// BENCH_ACTIONS_BLOCKS shortens a run; BENCH_ACTIONS_SAME=1 switches nothing off (an A/A check of the set-up).
const BLOCKS = Number(process.env.BENCH_ACTIONS_BLOCKS ?? 16);
const BLOCK = 5;

const page = (body) => `<!doctype html><html><head><meta charset="utf-8"><title>Bench</title></head><body>${body}</body></html>`;
const INFINITE = page(`<main><h1>Feed</h1><ol id="list"></ol><div id="end" style="height:1px"></div></main>
<script>
  let batch = 0;
  const list = document.getElementById('list');
  const load = () => fetch('/batch?n=' + batch).then((r) => r.json()).then((items) => {
    for (const text of items) { const li = document.createElement('li'); li.style.height = '300px'; li.textContent = text; list.append(li); }
    batch++;
  });
  load().then(() => new IntersectionObserver((entries) => { if (entries.some((e) => e.isIntersecting) && batch < ${BATCHES}) load(); }).observe(document.getElementById('end')));
</script>`);
const LAZY = page(
  `<h1>Gallery</h1>${Array.from({ length: IMAGES }, (_, i) => `<div style="height:1200px"><img loading="lazy" width="200" height="200" alt="photo ${i}" src="/img/${i}.png?RUN"></div>`).join('')}`,
);
const ARTICLE = page(
  `<main><article><h1>Article</h1>${Array.from({ length: 12 }, (_, i) => `<h2>Part ${i}</h2><p>${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(4)}</p>`).join('')}</article></main>`,
);
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

function startServer() {
  const images = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://bench');
    if (url.pathname === '/infinite') return res.writeHead(200, { 'content-type': 'text/html' }).end(INFINITE);
    if (url.pathname === '/lazy') return res.writeHead(200, { 'content-type': 'text/html' }).end(LAZY.replaceAll('RUN', url.search.slice(1)));
    if (url.pathname === '/article') return res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE);
    if (url.pathname === '/batch') {
      const n = Number(url.searchParams.get('n'));
      return res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(Array.from({ length: PER_BATCH }, (_, i) => `item ${n * PER_BATCH + i + 1}`)));
    }
    if (url.pathname.startsWith('/img/')) {
      images.push(req.url);
      return res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    }
    res.writeHead(404).end();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, images, origin: `http://127.0.0.1:${server.address().port}` })));
}

/** The tools and a task context from one build (its dist folder). */
async function loadBuild(dist, dataDir) {
  const imp = (p) => import(pathToFileURL(path.join(dist, p)).href);
  const [{ default: screenshot }, { default: markdown }, { loadConfig }, { createLogger }, { ServiceScope }] = await Promise.all([
    imp('tools/browser.screenshot.js'),
    imp('tools/browser.markdown.js'),
    imp('src/config.js'),
    imp('src/logger.js'),
    imp('src/registry/services.js'),
  ]);
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', NETWORK_ALLOWLIST: '127.0.0.1/32', BROWSER_CONCURRENCY: '1', SECRET: 'b'.repeat(40) });
  const scope = new ServiceScope(config, createLogger('silent'));
  let n = 0;
  const ctx = () => {
    const id = `task_actbench${++n}`;
    return {
      taskId: id,
      idempotencyKey: id,
      attempt: 1,
      signal: new AbortController().signal,
      config,
      log: createLogger('silent'),
      use: (d) => scope.use(d),
      progress: () => {},
    };
  };
  const run = (tool, input) => tool.run(ctx(), tool.input.parse(input));
  return { screenshot, markdown, run, close: () => scope.close() };
}

/** Switches the per-task code of the actions work off in a compiled tree, failing loudly if it moved. */
function switchOffActionsPath(dist) {
  const file = path.join(dist, 'src/browser/define-browser-tool.js');
  let js = fs.readFileSync(file, 'utf8');
  for (const [from, to] of [
    [/if \(wantsPreparation\(input\)\)/, 'if (false)'],
    [/if \(source\.url !== undefined\)\s+await checkBotWall\(page, opened\);/, ''],
  ]) {
    if (!from.test(js)) throw new Error(`switchOffActionsPath: ${from} not found in ${file}`);
    js = js.replace(from, to);
  }
  fs.writeFileSync(file, js);
}

const countItems = (md) => new Set(md.match(/item \d+/g) ?? []).size;

export default {
  name: 'actions',
  title: 'Browser actions: lazy content with and without scroll_to_load, and CPU per task with actions unused (issue 30)',
  async run() {
    const site = await startServer();
    const dataDirs = [tempDir('au-actions-bench-'), tempDir('au-actions-main-')];
    const here = await loadBuild(path.resolve('dist'), dataDirs[0]);
    const lines = [];
    try {
      // Completeness.
      const total = BATCHES * PER_BATCH;
      const mdWithout = await here.run(here.markdown, { url: `${site.origin}/infinite`, content: 'full' });
      const mdWith = await here.run(here.markdown, { url: `${site.origin}/infinite`, content: 'full', scroll_to_load: true });
      const shot = async (run, scroll) => {
        const before = site.images.length;
        const out = await here.run(here.screenshot, { url: `${site.origin}/lazy?${run}`, full_page: true, ...(scroll ? { scroll_to_load: true } : {}) });
        return { fetched: new Set(site.images.slice(before)).size, height: out.height, bytes: out.bytes };
      };
      const shotWithout = await shot('without', false);
      const shotWith = await shot('with', true);
      lines.push(
        '| Lazy page | without scroll_to_load | with scroll_to_load |',
        '|---|---:|---:|',
        `| browser.markdown: list items of ${total} (infinite list, ${BATCHES} batches fetched on scroll) | ${countItems(mdWithout.markdown)} | ${countItems(mdWith.markdown)} |`,
        `| browser.screenshot full_page: lazy images fetched of ${IMAGES} | ${shotWithout.fetched} | ${shotWith.fetched} |`,
        `| browser.screenshot full_page: image height px / bytes | ${shotWithout.height} / ${shotWithout.bytes} | ${shotWith.height} / ${shotWith.bytes} |`,
        '',
      );

      // CPU per task with actions unused: this tree's build against a copy of it with the per-task code the
      // actions work added switched off (the preparation check and the bot-wall check), so nothing else
      // differs. Same Chromium binary; the two alternate in blocks of BLOCK tasks (ABBA order against drift).
      const release = buildRelease('HEAD');
      const plainRoot = tempDir('au-actions-plain-');
      fs.cpSync(path.dirname(path.dirname(path.dirname(release.cli))), plainRoot, { recursive: true, verbatimSymlinks: true });
      if (process.env.BENCH_ACTIONS_SAME !== '1') switchOffActionsPath(path.join(plainRoot, 'dist'));
      const withPath = await loadBuild(path.join(path.dirname(path.dirname(release.cli))), dataDirs[1]);
      const without = await loadBuild(path.join(plainRoot, 'dist'), tempDir('au-actions-plain-data-'));
      try {
        const url = `${site.origin}/article`;
        const builds = { without, with: withPath };
        const perTask = { without: { screenshot: [], markdown: [] }, with: { screenshot: [], markdown: [] } };
        // Warm each: Chromium launched, modules loaded, first-task costs out of the measurement.
        for (const b of Object.values(builds)) for (let i = 0; i < 5; i++) await Promise.all([b.run(b.screenshot, { url }), b.run(b.markdown, { url })]);
        const loadBefore = os.loadavg()[0];
        for (let block = 0; block < BLOCKS; block++) {
          const order = block % 2 === 0 ? ['without', 'with'] : ['with', 'without'];
          for (const kind of ['screenshot', 'markdown']) {
            for (const label of order) {
              const b = builds[label];
              const meter = new CpuMeter(50);
              meter.start();
              for (let i = 0; i < BLOCK; i++) await b.run(b[kind], { url });
              perTask[label][kind].push(meter.stop().total / BLOCK);
            }
          }
        }
        const loadAfter = os.loadavg()[0];
        const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
        const sd = (xs) => Math.sqrt(xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / (xs.length - 1));
        lines.push(
          `| CPU ms per task with actions unused (Node + Chromium; ${BLOCKS} blocks of ${BLOCK} tasks each, interleaved) | without the path: mean ± sd | with it: mean ± sd | difference, paired blocks: mean ± 95% CI | change |`,
          '|---|---:|---:|---:|---:|',
        );
        for (const kind of ['screenshot', 'markdown']) {
          const a = perTask.without[kind];
          const b = perTask.with[kind];
          const diffs = b.map((x, i) => x - a[i]);
          const ci = (1.96 * sd(diffs)) / Math.sqrt(diffs.length);
          lines.push(
            `| browser.${kind} | ${mean(a).toFixed(1)} ± ${sd(a).toFixed(1)} | ${mean(b).toFixed(1)} ± ${sd(b).toFixed(1)} | ${mean(diffs).toFixed(1)} ± ${ci.toFixed(1)} | ${((mean(diffs) / mean(a)) * 100).toFixed(1)}% (95% CI ${(((mean(diffs) - ci) / mean(a)) * 100).toFixed(1)}% to ${(((mean(diffs) + ci) / mean(a)) * 100).toFixed(1)}%) |`,
          );
        }
        lines.push(
          '',
          `"Without the path" is the same build with \`wantsPreparation(input)\` and the bot-wall check switched off in its compiled define-browser-tool.js; everything else (schemas, pool, Chromium binary) is the same. CPU is read from /proc for this process and every process it started (CPU time, not wall time). Load average (1 min) ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after, on ${os.cpus().length} CPUs.`,
          '',
          `Blocks (ms/task): ${JSON.stringify(perTask, (_, v) => (typeof v === 'number' ? Math.round(v * 10) / 10 : v))}`,
        );
      } finally {
        await without.close();
        await withPath.close();
        release.cleanup();
        fs.rmSync(plainRoot, { recursive: true, force: true });
      }
    } finally {
      await here.close();
      site.server.close();
      for (const d of dataDirs) fs.rmSync(d, { recursive: true, force: true });
    }
    return lines.join('\n');
  },
};
