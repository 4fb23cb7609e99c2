// Issue 30: what scroll_to_load brings into a capture of a lazy-loading page (an infinite list fetched as
// its end comes into view, and images with loading=lazy far below the fold): list items in the Markdown and
// images fetched for a full-page screenshot, with and without it. And what the actions code costs a task
// that does not use it: CPU time per screenshot and per Markdown task (Node and Chromium together) of this
// tree's build against a copy with that per-task code switched off, in one run: task by task in pairs
// (one task of each build back to back, the order alternating), so drift in the machine's load falls on
// both sides of a pair and the interval comes from the paired differences. Loopback only.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { buildRelease } from './lib/release-build.mjs';
import { tempDir } from './lib/processes.mjs';
import { pairedCpu, pairedRows } from './lib/paired-cpu.mjs';
import { loadBrowserTools } from './lib/tool-build.mjs';

const BATCHES = 8;
const PER_BATCH = 5;
const IMAGES = 10;
// BENCH_ACTIONS_PAIRS shortens a run; BENCH_ACTIONS_SAME=1 switches nothing off (an A/A check of the set-up).
// 8 blocks of 5 tasks gave a 95% interval of ±16% of a task's CPU at load 24; pairs of single tasks, many
// more of them, narrow it by the square root of their number.
const PAIRS = Number(process.env.BENCH_ACTIONS_PAIRS ?? 150);

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
    const here = await loadBrowserTools(path.resolve('dist'), dataDirs[0]);
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
      // differs. Same Chromium binary; the two alternate task by task (see PAIRS).
      const release = buildRelease('HEAD');
      const plainRoot = tempDir('au-actions-plain-');
      fs.cpSync(path.dirname(path.dirname(path.dirname(release.cli))), plainRoot, { recursive: true, verbatimSymlinks: true });
      if (process.env.BENCH_ACTIONS_SAME !== '1') switchOffActionsPath(path.join(plainRoot, 'dist'));
      const withPath = await loadBrowserTools(path.join(path.dirname(path.dirname(release.cli))), dataDirs[1]);
      const without = await loadBrowserTools(path.join(plainRoot, 'dist'), tempDir('au-actions-plain-data-'));
      try {
        const url = `${site.origin}/article`;
        const builds = { without, with: withPath };
        // Warm each: Chromium launched, modules loaded, first-task costs out of the measurement.
        for (const b of Object.values(builds)) for (let i = 0; i < 5; i++) await Promise.all([b.run(b.screenshot, { url }), b.run(b.markdown, { url })]);
        const loadBefore = os.loadavg()[0];
        const tasks = (b) => ({ screenshot: () => b.run(b.screenshot, { url }), markdown: () => b.run(b.markdown, { url }) });
        const kinds = ['screenshot', 'markdown'];
        const measured = await pairedCpu({ a: tasks(without), b: tasks(withPath), kinds, pairs: PAIRS });
        const loadAfter = os.loadavg()[0];
        lines.push(
          `| CPU ms per task with actions unused (Node + Chromium; ${PAIRS} pairs of tasks, one of each build back to back, order alternating) | without the path: mean ± sd | with it: mean ± sd | difference, paired: mean ± 95% CI | change (95% CI) | median of paired differences |`,
          '|---|---:|---:|---:|---:|---:|',
          ...pairedRows(measured, kinds, (kind) => `browser.${kind}`),
        );
        lines.push(
          '',
          `${measured.relaunched} pairs during which a pool relaunched its Chromium (every 200 pages, in both builds alike) are left out. "Without the path" is the same build with \`wantsPreparation(input)\` and the bot-wall check switched off in its compiled define-browser-tool.js; everything else (schemas, pool, Chromium binary) is the same. CPU is read from /proc for this process and every process it started (CPU time, not wall time). Load average (1 min) ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after, on ${os.cpus().length} CPUs.`,
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
