// The loop under the worker pool and the lead outbox dispatcher: one pass at a time, a wake during a pass
// runs exactly one more pass after it, stop() waits for the pass in progress, and the timed pass comes
// even when nobody wakes the loop (also when the due-time lookup fails).
import { describe, expect, it } from 'vitest';
import { WakeLoop } from '../../src/engine/wake-loop.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('WakeLoop', () => {
  it('never overlaps passes; wakes during a pass collapse into one more pass', async () => {
    const gates = [deferred(), deferred()];
    let active = 0;
    let maxActive = 0;
    let passes = 0;
    const secondDone = deferred();
    const loop = new WakeLoop({
      pollIntervalMs: 60_000,
      onError: (err) => {
        throw err;
      },
      pass: async () => {
        const n = passes++;
        active++;
        maxActive = Math.max(maxActive, active);
        await gates[n]?.promise;
        active--;
        if (n === 1) secondDone.resolve();
      },
    });
    loop.start();
    loop.wake();
    loop.wake();
    loop.wake();
    gates[0]!.resolve();
    gates[1]!.resolve();
    await secondDone.promise;
    await loop.stop();
    expect(passes).toBe(2);
    expect(maxActive).toBe(1);
  });

  it('stop() resolves only after the pass in progress, and no pass starts after it', async () => {
    const gate = deferred();
    const started = deferred();
    let finished = false;
    let passes = 0;
    const loop = new WakeLoop({
      pollIntervalMs: 0,
      onError: () => undefined,
      pass: async () => {
        passes++;
        started.resolve();
        await gate.promise;
        finished = true;
      },
    });
    loop.start();
    await started.promise;
    const stopping = loop.stop();
    loop.wake();
    gate.resolve();
    await stopping;
    expect(finished).toBe(true);
    expect(loop.isStopped).toBe(true);
    await new Promise((r) => setImmediate(r));
    expect(passes).toBe(1);
  });

  it('runs the timed pass without a wake, also when the due-time lookup throws (falls back to the poll interval)', async () => {
    const third = deferred();
    let passes = 0;
    const errors: string[] = [];
    const loop = new WakeLoop({
      pollIntervalMs: 1,
      dueInMs: async () => {
        throw new Error('store unavailable');
      },
      onError: (_err, during) => errors.push(during),
      pass: async () => {
        if (++passes === 3) third.resolve();
      },
    });
    loop.start();
    await third.promise;
    await loop.stop();
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect(new Set(errors)).toEqual(new Set(['schedule']));
  });
});
