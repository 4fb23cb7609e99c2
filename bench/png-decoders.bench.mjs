// The PNG decoder (blank-page check) and the image-size reader (screenshot results): this tree's, on
// maintained packages (pngjs, image-size), against the hand-written ones of an earlier commit built at bench
// time (BENCH_PNG_BASELINE, default b41bb28). Inputs are Chromium's own captures of pages set on this
// machine (no network): the blank-check probe (320×200, optimizeForSpeed, as blank-check.ts takes it) of a
// blank and a busy page, and full 1280×800 screenshots; plus a JPEG and a WebP for the size reader. Each
// decoder runs the same inputs alternately; the median time per image is shown.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { findChromium } from '../dist/src/browser/chromium-path.js';
import { ROOT } from './lib/processes.mjs';
import { buildRelease } from './lib/release-build.mjs';

const BASELINE = process.env.BENCH_PNG_BASELINE ?? 'b41bb28';
/** A folder holding the baseline's compiled png-pixels.js and image-size.js, instead of building BASELINE. */
const BASELINE_DIST = process.env.BENCH_PNG_BASELINE_DIST;
const ROUNDS = Number(process.env.BENCH_PNG_ROUNDS ?? 7);

const BUSY = `<body style="margin:0;font:14px sans-serif">${Array.from(
  { length: 200 },
  (_, i) =>
    `<p style="color:hsl(${(i * 37) % 360},70%,40%);background:hsl(${(i * 53) % 360},60%,90%)">Paragraph ${i}: the quick brown fox jumps over the lazy dog.</p>`,
).join(
  '',
)}<img src="data:image/svg+xml,${encodeURIComponent("<svg xmlns='http://www.w3.org/2000/svg' width='600' height='400'><defs><linearGradient id='g'><stop offset='0' stop-color='red'/><stop offset='1' stop-color='blue'/></linearGradient></defs><rect width='600' height='400' fill='url(%23g)'/></svg>")}"></body>`;

async function captures() {
  const browser = await chromium.launch({ executablePath: findChromium(), args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const cdp = await page.context().newCDPSession(page);
    const probe = async () =>
      Buffer.from(
        (
          await cdp.send('Page.captureScreenshot', {
            format: 'png',
            clip: { x: 0, y: 0, width: 1280, height: 800, scale: 0.25 },
            captureBeyondViewport: false,
            optimizeForSpeed: true,
          })
        ).data,
        'base64',
      );
    await page.setContent('<body style="background:#fff"></body>');
    await page.screenshot(); // a first frame exists before the protocol capture
    const blankProbe = await probe();
    await page.setContent(BUSY);
    const busyProbe = await probe();
    const busyFull = await page.screenshot({ type: 'png' });
    const busyJpeg = await page.screenshot({ type: 'jpeg', quality: 80 });
    const busyWebp = Buffer.from((await cdp.send('Page.captureScreenshot', { format: 'webp', quality: 80, captureBeyondViewport: false })).data, 'base64');
    return { blankProbe, busyProbe, busyFull, busyJpeg, busyWebp };
  } finally {
    await browser.close();
  }
}

function timeEach(fn, input, n) {
  const t = performance.now();
  for (let i = 0; i < n; i++) fn(input);
  return (performance.now() - t) / n;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

export default {
  name: 'png-decoders',
  title: 'PNG decoding and image sizes: pngjs and image-size against the hand-written readers',
  async run() {
    const base = BASELINE_DIST
      ? { label: `${BASELINE} (prebuilt)`, dir: BASELINE_DIST, cleanup: () => undefined }
      : (({ label, cli, cleanup }) => ({ label, dir: path.resolve(cli, '..', 'browser'), cleanup }))(buildRelease(BASELINE));
    try {
      const load = async (dir, file) => import(pathToFileURL(path.join(dir, file)).href);
      const mineDir = path.join(ROOT, 'dist/src/browser');
      const mine = { png: (await load(mineDir, 'png-pixels.js')).decodePng, size: (await load(mineDir, 'image-size.js')).imageSize };
      const theirs = { png: (await load(base.dir, 'png-pixels.js')).decodePng, size: (await load(base.dir, 'image-size.js')).imageSize };
      const img = await captures();
      const rows = [];
      const pngCases = [
        ['decode: blank-check probe, blank page (320×200)', img.blankProbe, 200],
        ['decode: blank-check probe, busy page (320×200)', img.busyProbe, 200],
        ['decode: full screenshot, busy page (1280×800)', img.busyFull, 10],
      ];
      for (const [label, bytes, n] of pngCases) {
        const a = mine.png(bytes);
        const b = theirs.png(bytes);
        if (a.width !== b.width || a.height !== b.height || Buffer.compare(Buffer.from(a.rgba), Buffer.from(b.rgba)) !== 0)
          throw new Error(`${label}: the decoders disagree`);
        const m = [];
        const t = [];
        for (let r = 0; r < ROUNDS; r++) {
          m.push(timeEach(mine.png, bytes, n));
          t.push(timeEach(theirs.png, bytes, n));
        }
        rows.push([label, `${bytes.length.toLocaleString('en')} B`, median(m), median(t)]);
      }
      const sizeCases = [
        ['size: PNG screenshot', img.busyFull],
        ['size: JPEG screenshot', img.busyJpeg],
        ['size: WebP screenshot', img.busyWebp],
      ];
      for (const [label, bytes] of sizeCases) {
        const a = mine.size(bytes);
        const b = theirs.size(bytes);
        if (a.width !== b.width || a.height !== b.height) throw new Error(`${label}: the readers disagree (${JSON.stringify([a, b])})`);
        const m = [];
        const t = [];
        for (let r = 0; r < ROUNDS; r++) {
          m.push(timeEach(mine.size, bytes, 2000));
          t.push(timeEach(theirs.size, bytes, 2000));
        }
        rows.push([label, `${bytes.length.toLocaleString('en')} B, ${a.width}×${a.height}`, median(m), median(t)]);
      }
      const fmt = (ms) => (ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(1)} µs`);
      return [
        `Load average at the end: ${(await import('node:os')).default
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(', ')}. Median of ${ROUNDS} alternating rounds; both give identical pixels and sizes on every input (checked).`,
        '',
        `| per image | input | this tree (pngjs / image-size) | ${base.label} (hand-written) |`,
        '|---|---|---:|---:|',
        ...rows.map(([l, i, a, b]) => `| ${l} | ${i} | ${fmt(a)} | ${fmt(b)} |`),
      ].join('\n');
    } finally {
      base.cleanup();
    }
  },
};
