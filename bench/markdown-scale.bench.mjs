// How browser.markdown's cost grows with the page: the same generated article (bench/lib/long-article.mjs)
// at 0.25, 0.5, 1, 2 and 4 MB of HTML, converted by htmlToMarkdown (what the tool's extraction workers run),
// in CPU time per MB of HTML (the machine may be shared: CPU time is what the conversion itself costs) and
// wall time. In the same run, browser.content and the tool's own page script on the same 4 MB page served
// from loopback to Chromium, the reference the issue sets (markdown of a 4 MB page at most 3× content).
// Baseline in the same run: the conversion before this change (the build of main, BENCH_SCALE_BASELINE=dir
// of an older dist/, e.g. a build of main), when given. Each build converts a small page once before the
// measured sizes (warm-up). BENCH_SCALE_SIZES=0.25,0.5 for a quick run.
import http from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { findChromium } from '../dist/src/browser/chromium-path.js';
import { serialiseVisibleDocument } from '../dist/src/browser/page-scripts.js';
import { htmlToMarkdown } from '../dist/src/extract/markdown.js';
import { longArticle } from './lib/long-article.mjs';

const SIZES = (process.env.BENCH_SCALE_SIZES ?? '0.25,0.5,1,2,4').split(',').map(Number);
const MB = 1024 * 1024;

function measure(convert, html) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const out = convert(html, 'A long report on the river | Example Gazette', 'main');
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(c0);
  return { cpu: (cpu.user + cpu.system) / 1000, wall, source: out.source, chars: out.markdown.length };
}

/** browser.content and the markdown tool's page script on the page, in one warm Chromium (wall ms). */
async function inChromium(html) {
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const browser = await chromium.launch({
    executablePath: findChromium(),
    args: ['--no-sandbox', '--disable-gpu', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
  });
  try {
    const page = await browser.newPage();
    const url = `http://127.0.0.1:${server.address().port}/`;
    await page.goto(url, { waitUntil: 'load' });
    let t = performance.now();
    await page.goto(url, { waitUntil: 'load' });
    const load = performance.now() - t;
    t = performance.now();
    await page.content();
    const content = load + performance.now() - t;
    t = performance.now();
    const doc = await page.evaluate(serialiseVisibleDocument, 30_000);
    const serialise = load + performance.now() - t;
    return { content, serialise, doc };
  } finally {
    await browser.close();
    server.close();
  }
}

export default {
  name: 'markdown-scale',
  title: 'browser.markdown: cost against page size (0.25–4 MB), and against browser.content of a 4 MB page',
  async run() {
    const baselineDir = process.env.BENCH_SCALE_BASELINE;
    // The extraction lived in src/browser/ before it became its own module (src/extract/).
    const baselineModule = baselineDir
      ? await import(`${baselineDir}/src/extract/markdown.js`).catch(() => import(`${baselineDir}/src/browser/markdown.js`))
      : undefined;
    const baseline = baselineModule?.htmlToMarkdown;
    // One conversion of a small page first, for each build, not measured: module compilation and JIT warm-up
    // would otherwise be charged to the first size (the service's extraction workers are long-lived).
    for (const convert of [htmlToMarkdown, baseline]) convert?.(longArticle(64 * 1024), 'Warm-up', 'main');
    const rows = [];
    for (const size of SIZES) {
      const html = longArticle(size * MB);
      const ours = measure(htmlToMarkdown, html);
      const before = baseline ? measure(baseline, html) : undefined;
      rows.push({ size, ours, before });
      process.stderr.write(
        `  ${size} MB: ours ${(ours.cpu / size / 1000).toFixed(2)} s CPU/MB${before ? `, before ${(before.cpu / size / 1000).toFixed(2)}` : ''}\n`,
      );
    }
    const biggest = Math.max(...SIZES);
    const chromiumTimes = await inChromium(longArticle(biggest * MB));
    const conv = measure(htmlToMarkdown, chromiumTimes.doc.html);
    const perMb = rows.map((r) => r.ours.cpu / r.size);
    const lines = [
      'Page: bench/lib/long-article.mjs (a site header and menu, one article of plain paragraphs with a link every third one, a section heading every twelve, a footer), generated to each size. ' +
        'Conversion = htmlToMarkdown in this process (what the extraction worker runs); CPU time is the process’s, wall time is also shown (the machine may be shared).',
      '',
      `| HTML | ours: CPU s/MB | ours: wall s | ${baseline ? 'before: CPU s/MB | before: wall s | ' : ''}source |`,
      `| ---: | ---: | ---: | ${baseline ? '---: | ---: | ' : ''}--- |`,
      ...rows.map(
        (r) =>
          `| ${r.size} MB | ${(r.ours.cpu / r.size / 1000).toFixed(2)} | ${(r.ours.wall / 1000).toFixed(1)} | ${r.before ? `${(r.before.cpu / r.size / 1000).toFixed(2)} | ${(r.before.wall / 1000).toFixed(1)} | ` : ''}${r.ours.source} |`,
      ),
      '',
      `Ours: CPU per MB from ${(Math.min(...perMb) / 1000).toFixed(2)} to ${(Math.max(...perMb) / 1000).toFixed(2)} s (max/min ${(Math.max(...perMb) / Math.min(...perMb)).toFixed(2)}×; the goal is within 2×).`,
      '',
      `Same ${biggest} MB page in Chromium (wall, warm browser, second load): browser.content (load + page.content()) ${(chromiumTimes.content / 1000).toFixed(1)} s; ` +
        `browser.markdown = load + page script ${(chromiumTimes.serialise / 1000).toFixed(1)} s + conversion ${(conv.wall / 1000).toFixed(1)} s wall (${(conv.cpu / 1000).toFixed(1)} s CPU) = ` +
        `${((chromiumTimes.serialise + conv.wall) / chromiumTimes.content).toFixed(1)}× browser.content (goal ≤ 3×); ` +
        `with the conversion's CPU time instead of its wall time (on a shared machine the wall time is mostly waiting for a core) ` +
        `${((chromiumTimes.serialise + conv.cpu) / chromiumTimes.content).toFixed(1)}×. Load average at the end of the run: ${os.loadavg()[0].toFixed(1)}.`,
    ];
    return lines.join('\n');
  },
};
