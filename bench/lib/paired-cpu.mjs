// CPU per task of two set-ups (builds, or one build under two settings) compared in one run: task by task
// in pairs, one task of each back to back with the order alternating (ABBA), so drift in the machine's
// load falls on both sides of a pair and the interval comes from the paired differences. Used by the
// actions bench (its per-task code on and off) and the chromium-sandbox bench (the sandbox on and off).
import fs from 'node:fs';
import path from 'node:path';
import { CpuMeter, descendants } from './proc-cpu.mjs';

/** This process's Chromium browser processes (not their renderers and helpers): pid and command line. */
export function chromiumBrowserProcesses() {
  const out = [];
  for (const pid of descendants()) {
    try {
      // A sandboxed Chromium child rewrites its command line into one space-separated string.
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/).filter(Boolean);
      if (/chrom/i.test(path.basename(cmd[0] ?? '')) && !cmd.some((a) => a.startsWith('--type='))) out.push({ pid, cmd });
    } catch {
      // exited meanwhile
    }
  }
  return out.sort((x, y) => x.pid - y.pid);
}

/**
 * The pool relaunches its Chromium every 200 pages; a pair during which that happened is left out: the
 * launch is a lifecycle cost both sides pay alike, and when a browser exits its whole process tree's
 * lifetime CPU lands at once in its parent's reaped time, which would charge seconds to one task.
 */
const browserPids = () =>
  chromiumBrowserProcesses()
    .map((p) => p.pid)
    .join(',');

export const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
export const sd = (xs) => Math.sqrt(xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / (xs.length - 1));

/** Mean of the paired differences b - a with its 95% interval (normal; n is in the hundreds), and their median. */
export function pairedDifference(a, b) {
  const diffs = b.map((x, i) => x - a[i]);
  const sorted = [...diffs].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  return {
    baseline: mean(a),
    mean: mean(diffs),
    ci: (1.96 * sd(diffs)) / Math.sqrt(diffs.length),
    median: sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2,
  };
}

/**
 * Runs `pairs` pairs of each kind of task on set-ups `a` and `b` ({ [kind]: () => Promise }) and returns
 * the CPU ms (this process and everything it started) of each task, { a: { kind: [...] }, b: {...} },
 * without the pairs during which a Chromium was relaunched (see browserPids; `relaunched` counts them).
 */
export async function pairedCpu({ a, b, kinds, pairs }) {
  const perTask = { a: Object.fromEntries(kinds.map((k) => [k, []])), b: Object.fromEntries(kinds.map((k) => [k, []])), relaunched: 0 };
  const setups = { a, b };
  for (let pair = 0; pair < pairs; pair++) {
    // Neither always goes first: the second of two tasks finds warmer caches.
    const order = pair % 2 === 0 ? ['a', 'b'] : ['b', 'a'];
    for (const kind of kinds) {
      const browsers = browserPids();
      const cpu = {};
      for (const label of order) {
        const meter = new CpuMeter(50);
        meter.start();
        await setups[label][kind]();
        cpu[label] = meter.stop().total;
      }
      if (browserPids() !== browsers) {
        perTask.relaunched++;
        continue;
      }
      for (const label of order) perTask[label][kind].push(cpu[label]);
    }
  }
  return perTask;
}

/** Markdown table rows comparing b against a per kind (the table's header names them). */
export function pairedRows(perTask, kinds, label = (kind) => kind) {
  return kinds.map((kind) => {
    const a = perTask.a[kind];
    const b = perTask.b[kind];
    const d = pairedDifference(a, b);
    const pct = (x) => `${((x / d.baseline) * 100).toFixed(1)}%`;
    return `| ${label(kind)} | ${mean(a).toFixed(1)} ± ${sd(a).toFixed(1)} | ${mean(b).toFixed(1)} ± ${sd(b).toFixed(1)} | ${d.mean.toFixed(1)} ± ${d.ci.toFixed(1)} | ${pct(d.mean)} (${pct(d.mean - d.ci)} to ${pct(d.mean + d.ci)}) | ${d.median.toFixed(1)} |`;
  });
}
