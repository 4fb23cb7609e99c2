// Issue 30: what scroll_to_load brings into a capture of a lazy-loading page (an infinite list fetched as
// its end comes into view, and images with loading=lazy far below the fold): list items in the Markdown and
// images fetched for a full-page screenshot, with and without it. And what the actions code costs a task
// that does not use it: CPU per screenshot and per Markdown task (Node and Chromium together) of this
// tree against main's build (built into a temp folder at bench time), alternating rounds in one run.
// Loopback only.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildRelease } from './lib/release-build.mjs';
import { tempDir } from './lib/processes.mjs';
import { CpuMeter } from './lib/proc-cpu.mjs';

const BATCHES = 8;
const PER_BATCH = 5;
const IMAGES = 10;
const TASKS_PER_ROUND = 30;
const ROUNDS = 3;

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

      // CPU per task with actions unused: this tree against main's build, alternating rounds.
      const release = buildRelease('main');
      const main = await loadBuild(path.join(path.dirname(path.dirname(release.cli))), dataDirs[1]);
      try {
        const url = `${site.origin}/article`;
        const builds = { main, 'this tree': here };
        const cpu = { main: { screenshot: [], markdown: [] }, 'this tree': { screenshot: [], markdown: [] } };
        // Warm each: Chromium launched, modules loaded, first-task costs out of the measurement.
        for (const b of Object.values(builds)) for (let i = 0; i < 3; i++) await Promise.all([b.run(b.screenshot, { url }), b.run(b.markdown, { url })]);
        for (let round = 0; round < ROUNDS; round++) {
          for (const [label, b] of Object.entries(builds)) {
            for (const kind of ['screenshot', 'markdown']) {
              const meter = new CpuMeter();
              meter.start();
              for (let i = 0; i < TASKS_PER_ROUND; i++) await b.run(b[kind], { url });
              cpu[label][kind].push(meter.stop().total / TASKS_PER_ROUND);
            }
          }
        }
        const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
        lines.push(
          `| CPU ms per task (Node + Chromium, median of ${ROUNDS} rounds of ${TASKS_PER_ROUND}, alternating) | main | this tree | change |`,
          '|---|---:|---:|---:|',
        );
        for (const kind of ['screenshot', 'markdown']) {
          const a = median(cpu.main[kind]);
          const b = median(cpu['this tree'][kind]);
          lines.push(`| browser.${kind}, actions unused | ${a.toFixed(1)} | ${b.toFixed(1)} | ${(((b - a) / a) * 100).toFixed(1)}% |`);
        }
        lines.push('', `Rounds (ms/task): ${JSON.stringify(cpu)}`);
      } finally {
        await main.close();
        release.cleanup();
      }
    } finally {
      await here.close();
      site.server.close();
      for (const d of dataDirs) fs.rmSync(d, { recursive: true, force: true });
    }
    return lines.join('\n');
  },
};
