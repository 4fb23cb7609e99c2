// Chromium crash storm at the size (issue #31; too long for CI, where browser.crash-storm.test.ts
// runs 30 tasks): 500 browser.content tasks through the real service (REST, engine, workers, browser
// pool) while browser and renderer processes are SIGKILLed at random. Counts, from the task views and
// the key's ledger: tasks that never ended (lost), charged or refunded other than once, completed ones
// refunded; then, after the service stops, Chromium processes and profile directories left behind. The
// baseline is a batch of the same tasks on the same service with no storm. Loopback only (the fixture
// page server); the built code (dist/) runs. CRASH_STORM_TASKS changes the size.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT } from './lib/processes.mjs';

const { startTrackedBrowserService } = await import(path.join(ROOT, 'dist/test/support/tracked-browser-service.js'));
const { startCrashStorm, ledgerByTask } = await import(path.join(ROOT, 'dist/test/support/crash-storm.js'));
const { settleTask } = await import(path.join(ROOT, 'dist/test/support/task-wait.js'));
const { api } = await import(path.join(ROOT, 'dist/test/support/service.js'));
const { browserPoolService } = await import(path.join(ROOT, 'dist/src/browser/service.js'));

const TASKS = Number(process.env.CRASH_STORM_TASKS ?? 500);
const BASELINE = Math.min(100, TASKS);

/** `count` tasks created at once and waited for; returns each ended task and the wall time. */
async function batch(h, key, count, tag) {
  const t0 = performance.now();
  const created = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const r = await api(h.svc.url, 'POST', '/v1/tools/browser.content/tasks', { token: key, body: { url: `${h.fixture.origin}/article?${tag}=${i}` } });
      if (r.status !== 202) throw new Error(`creating task ${i} answered ${r.status}: ${JSON.stringify(r.body)}`);
      return { id: r.body.task_id, token: r.body.poll_token };
    }),
  );
  return { created, ended: Promise.all(created.map((t) => settleTask(h.svc.url, t))), t0 };
}

/** A failure's message with its URL taken out, so that failures of one kind count together. */
const reasonOf = (error) => String(error).replace(/https?:\/\/\S+/g, '<url>');

function tally(ended, ledger) {
  const reasons = new Map();
  let complete = 0;
  let badCharge = 0;
  let badRefund = 0;
  for (const t of ended) {
    if (t.status === 'complete') complete++;
    else reasons.set(reasonOf(t.body.error), (reasons.get(reasonOf(t.body.error)) ?? 0) + 1);
    const rows = ledger.get(t.id) ?? {};
    if ((rows.charge ?? 0) !== 1) badCharge++;
    if ((rows.refund ?? 0) !== (t.status === 'failed' ? 1 : 0)) badRefund++;
  }
  return { complete, failed: ended.length - complete, reasons, badCharge, badRefund };
}

export default {
  name: 'crash-storm',
  title: 'Chromium crash storm: 500 browser tasks while browser and renderer processes are killed (issue #31)',
  async run() {
    const loadStart = os.loadavg()[0];
    const h = await startTrackedBrowserService('storm-bench');
    let result;
    try {
      const { key, id: keyId } = await h.svc.createKey(100);
      // Warm: the first launch is not part of either figure.
      await (
        await batch(h, key, 3, 'warm')
      ).ended;

      const base = await batch(h, key, BASELINE, 'base');
      const baseEnded = await base.ended;
      const baseMs = performance.now() - base.t0;

      const stats0 = (await h.svc.rt.scope.peek(browserPoolService)).pool.stats();
      const stormBatch = await batch(h, key, TASKS, 'storm');
      const storm = startCrashStorm(h.tracker, { everyMs: [200, 700], browserShare: 0.15, atLeast: { browser: 1, renderer: 1 } });
      // A task that never ends would keep this waiting: bound it, and count what is still open as lost.
      const bound = new Promise((resolve) => setTimeout(() => resolve('timeout'), 30 * 60_000).unref());
      const stormEnded = await Promise.race([stormBatch.ended, bound]);
      const stormMs = performance.now() - stormBatch.t0;
      const kills = await storm.stop();
      const lost = stormEnded === 'timeout' ? TASKS : 0;
      const ended = stormEnded === 'timeout' ? [] : stormEnded;

      // After the storm the pool serves again by itself.
      const after = await (await batch(h, key, 6, 'after')).ended;
      const stats = (await h.svc.rt.scope.peek(browserPoolService)).pool.stats();
      const ledger = await ledgerByTask(h.svc.rt.store, keyId);
      await h.stopService();
      const left = h.tracker.leftovers().filter((p) => !p.zombie).length;
      const zombies = h.tracker.leftovers().filter((p) => p.zombie).length;
      const profiles = fs.readdirSync(h.tmp).filter((f) => f.startsWith('playwright')).length;
      result = {
        base: { ms: baseMs, ...tally(baseEnded, ledger) },
        storm: { ms: stormMs, ...tally(ended, ledger) },
        lost,
        kills,
        relaunches: stats.launches - stats0.launches,
        browserCrashes: stats.crashes - stats0.crashes,
        pageCrashes: stats.crashedPages - stats0.crashedPages,
        afterComplete: after.filter((t) => t.status === 'complete').length,
        left,
        zombies,
        profiles,
        processesSeen: h.tracker.count,
      };
    } finally {
      await h.close();
    }
    const r = result;
    const row = (name, x, n) =>
      `| ${name} | ${n} | ${x.complete} | ${x.failed} | ${x.badCharge} | ${x.badRefund} | ${((n / x.ms) * 1000).toFixed(2)} | ${(x.ms / 1000).toFixed(1)} |`;
    const reasons = [...r.storm.reasons].sort((a, b) => b[1] - a[1]).map(([why, n]) => `${n} × "${why}"`);
    return [
      `browser.content of a local fixture page, created all at once through REST, BROWSER_CONCURRENCY=3, SQLite store, one process (engine, workers, pool). During the storm a random live Chromium process of the service is SIGKILLed every 200–700 ms: the browser process with probability 0.15, else a renderer (test/support/crash-storm.ts). The baseline is ${BASELINE} of the same tasks on the same service just before, with no storm.`,
      '',
      '| run | tasks | complete | failed (refunded) | charged ≠ once | refunds ≠ (1 if failed else 0) | tasks/s | wall s |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      row('**Baseline:** no storm', r.base, BASELINE),
      row('Crash storm', r.storm, TASKS),
      '',
      `- Lost (never ended): **${r.lost}**. Kills: ${r.kills.browser} browser processes, ${r.kills.renderer} renderers; the pool relaunched Chromium ${r.relaunches} times (${r.browserCrashes} browser deaths seen, ${r.pageCrashes} crashed pages).`,
      `- Failures by reason: ${reasons.length ? reasons.join(', ') : 'none'}.`,
      `- After the storm, ${r.afterComplete} of 6 new tasks completed with no restart.`,
      `- After the service stopped: ${r.left} live Chromium processes and ${r.profiles} profile directories left (of ${r.processesSeen} processes seen); ${r.zombies} zombies (a killed browser's children are re-parented to PID 1, whose reaping is the container init's job).`,
      `- Load average (1 min) ${loadStart.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end (shared 2-core machine; the throughput figures move with it).`,
    ].join('\n');
  },
};
