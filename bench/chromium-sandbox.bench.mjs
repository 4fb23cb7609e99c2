// Issue 26: what Chromium's sandbox costs a browser task. One build, two service scopes in this process:
// CHROMIUM_SANDBOX=on (the sandboxed Chromium, as CHROMIUM_SANDBOX_UID when this process is root) and
// CHROMIUM_SANDBOX=off (--no-sandbox), the same Chromium binary. CPU per screenshot and per Markdown task
// (Node and every Chromium process together), task by task in pairs with the order alternating. Loopback only.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { tempDir } from './lib/processes.mjs';
import { chromiumBrowserProcesses, pairedCpu, pairedRows } from './lib/paired-cpu.mjs';
import { loadBrowserTools } from './lib/tool-build.mjs';

// BENCH_SANDBOX_PAIRS shortens a run.
const PAIRS = Number(process.env.BENCH_SANDBOX_PAIRS ?? 300);

const ARTICLE = `<!doctype html><html><head><meta charset="utf-8"><title>Bench</title></head><body><main><article><h1>Article</h1>${Array.from(
  { length: 12 },
  (_, i) => `<h2>Part ${i}</h2><p>${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(4)}</p>`,
).join('')}</article></main></body></html>`;

function startServer() {
  const server = http.createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(ARTICLE));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${server.address().port}` })));
}

/** How many of this process's Chromium browser processes run sandboxed (launched without --no-sandbox). */
function sandboxedChromiums() {
  const out = { sandboxed: 0, unsandboxed: 0 };
  for (const { cmd } of chromiumBrowserProcesses()) {
    if (cmd.includes('--no-sandbox')) out.unsandboxed++;
    else out.sandboxed++;
  }
  return out;
}

export default {
  name: 'chromium-sandbox',
  title: 'Chromium sandbox: CPU per browser task with CHROMIUM_SANDBOX=on against off (issue 26)',
  async run() {
    const site = await startServer();
    const dirs = [tempDir('au-sandbox-on-'), tempDir('au-sandbox-off-')];
    const dist = path.resolve('dist');
    const on = await loadBrowserTools(dist, dirs[0], { CHROMIUM_SANDBOX: 'on' });
    const off = await loadBrowserTools(dist, dirs[1], { CHROMIUM_SANDBOX: 'off' });
    try {
      const url = `${site.origin}/`;
      // Warm each: Chromium launched, modules loaded, first-task costs out of the measurement.
      for (const b of [on, off]) for (let i = 0; i < 5; i++) await Promise.all([b.run(b.screenshot, { url }), b.run(b.markdown, { url })]);
      const browsers = sandboxedChromiums();
      if (browsers.sandboxed < 1 || browsers.unsandboxed < 1)
        throw new Error(`expected one sandboxed and one unsandboxed Chromium, found ${JSON.stringify(browsers)}`);
      const loadBefore = os.loadavg()[0];
      const tasks = (b) => ({ screenshot: () => b.run(b.screenshot, { url }), markdown: () => b.run(b.markdown, { url }) });
      const kinds = ['screenshot', 'markdown'];
      const measured = await pairedCpu({ a: tasks(off), b: tasks(on), kinds, pairs: PAIRS });
      const loadAfter = os.loadavg()[0];
      return [
        `| CPU ms per task (Node + Chromium; ${PAIRS} pairs of tasks, one of each setting back to back, order alternating) | CHROMIUM_SANDBOX=off: mean ± sd | on: mean ± sd | difference, paired: mean ± 95% CI | change (95% CI) | median of paired differences |`,
        '|---|---:|---:|---:|---:|---:|',
        ...pairedRows(measured, kinds, (kind) => `browser.${kind}`),
        '',
        `One build (this tree's dist), one Chromium binary, two service scopes in one process; "on" runs Chromium sandboxed${process.getuid?.() === 0 ? ' as CHROMIUM_SANDBOX_UID (this process is root)' : ''}, checked from the launched command lines (${browsers.sandboxed} without --no-sandbox, ${browsers.unsandboxed} with it). A page of 12 sections from a loopback server, BROWSER_CONCURRENCY 1. ${measured.relaunched} pairs during which a pool relaunched its Chromium (every 200 pages) are left out. CPU is read from /proc for this process and every process it started (CPU time, not wall time). Load average (1 min) ${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after, on ${os.cpus().length} CPUs.`,
      ].join('\n');
    } finally {
      await on.close();
      await off.close();
      site.server.close();
      for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
    }
  },
};
