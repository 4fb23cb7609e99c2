// Pages that never stop, through the real service: one allocates memory without end, one spins the CPU.
// Each fails its own task with a clear error within its limits and is refunded; its renderer is gone
// afterwards (memory returns); other tasks running at the same time complete, and the service answers.
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api } from '../support/service.js';
import { startTrackedBrowserService, type TrackedBrowserService } from '../support/tracked-browser-service.js';
import { ledgerByTask } from '../support/crash-storm.js';
import { settleTask } from '../support/task-wait.js';

let h: TrackedBrowserService;

beforeAll(async () => {
  h = await startTrackedBrowserService('runaway', 250);
});
afterAll(async () => {
  await h?.close();
});

/** Resident memory of every live Chromium process of this service, in MB. */
function chromiumRssMb(): number {
  let kb = 0;
  for (const p of h.tracker.scan()) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${p.pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // exited meanwhile
    }
  }
  return kb / 1024;
}

/** The largest resident size of any one live Chromium process, in MB. */
function largestProcessRssMb(): number {
  let kb = 0;
  for (const p of h.tracker.scan()) {
    try {
      kb = Math.max(kb, Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${p.pid}/status`, 'utf8'))?.[1] ?? 0));
    } catch {
      // exited meanwhile
    }
  }
  return kb / 1024;
}

const renderers = () => h.tracker.scan().filter((p) => !p.zombie && p.cmdline.includes('--type=renderer')).length;

it.each([
  // The memory page says what happened, not only that the page crashed (crash-reasons.ts).
  ['memory', /^The page used more memory than the limit of 512 MB/],
  ['cpu', /did not (respond|finish)/],
])(
  'a page that runs away with %s fails its task alone',
  async (kind, reason) => {
    const { key, id: keyId } = await h.svc.createKey(5);
    const create = async (url: string, timeout_ms = 20_000) => {
      const r = await api(h.svc.url, 'POST', '/v1/tools/browser.content/tasks', { token: key, body: { url, timeout_ms } });
      expect(r.status).toBe(202);
      return { id: r.body.task_id as string, token: r.body.poll_token as string };
    };
    // Warm the pool so the baseline includes its browser and ready tabs.
    expect((await settleTask(h.svc.url, await create(`${h.fixture.origin}/article?warm-${kind}`))).status).toBe('complete');
    const baseline = chromiumRssMb();

    // The highest Chromium memory while the page runs (sampled): the renderer heap cap (launch-args.ts,
    // 512 MB) keeps it bounded; uncapped, V8 lets a renderer grow to about 4 GB before it gives up.
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, chromiumRssMb())), 250);
    const runaway = await create(`${h.fixture.origin}/runaway/${kind}`, 5_000);
    const others = await Promise.all(Array.from({ length: 4 }, (_, i) => create(`${h.fixture.origin}/article?beside-${kind}-${i}`)));
    // The service answers while the page runs away.
    expect((await api(h.svc.url, 'GET', '/healthz')).status).toBe(200);

    const ended = await settleTask(h.svc.url, runaway);
    clearInterval(sampler);
    expect(peak - baseline).toBeLessThan(1_200);
    expect(ended.status).toBe('failed');
    expect(ended.body.error).toMatch(reason);
    for (const t of await Promise.all(others.map((o) => settleTask(h.svc.url, o)))) expect(t.status).toBe('complete');
    expect((await ledgerByTask(h.svc.rt.store, keyId)).get(runaway.id)).toEqual({ charge: 1, refund: 1 });

    // The runaway renderer is gone and its memory with it: back to the pool's ready tabs (each a renderer),
    // no process holds anything near the runaway heap, and the total is far below the peak. (The summed
    // RSS counts shared pages once per process and grows with the tabs opened beside it, so it is bounded
    // loosely; the largest single process is the sharp check.) Closing takes Chromium a moment: wait for
    // it (bounded).
    const settled = () => renderers() <= 5 && largestProcessRssMb() < 300 && chromiumRssMb() < baseline + 400;
    for (let i = 0; i < 100 && !settled(); i++) await new Promise((r) => setTimeout(r, 200));
    expect(renderers()).toBeLessThanOrEqual(5);
    expect(largestProcessRssMb()).toBeLessThan(300);
    expect(chromiumRssMb()).toBeLessThan(baseline + 400);
    // And the next task on the same pool succeeds.
    expect((await settleTask(h.svc.url, await create(`${h.fixture.origin}/article?after-${kind}`))).status).toBe('complete');
  },
  120_000,
);
