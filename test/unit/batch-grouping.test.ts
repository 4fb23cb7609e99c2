// Batch items grouped by target (groupedOrder) and bounded concurrency per target (HostLimiter).
import { describe, expect, it } from 'vitest';
import { groupedOrder } from '../../src/engine/batches.js';
import { HostLimiter } from '../../src/net/host-limiter.js';

describe('groupedOrder', () => {
  it('groups inputs by key, groups in order of first appearance, inputs in order within a group', () => {
    const inputs = ['a@x', 'b@y', 'c@x', 'd@z', 'e@y', 'f@x'];
    const key = (email: string) => email.split('@')[1]!;
    expect(groupedOrder(key as (i: never) => string, inputs)).toEqual([0, 2, 5, 1, 4, 3]);
  });

  it('keeps input order for a tool without a key', () => {
    expect(groupedOrder(undefined, ['b', 'a', 'c'])).toEqual([0, 1, 2]);
  });
});

describe('HostLimiter', () => {
  function deferred() {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    return { promise, resolve };
  }

  it('runs at most `limit` jobs per key at once, the rest in arrival order; other keys are not held up', async () => {
    const limiter = new HostLimiter(2);
    const gates = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    const jobs = gates.map((g, i) =>
      limiter.run('example.com', async () => {
        started.push(i);
        await g.promise;
        return i;
      }),
    );
    const other = limiter.run('other.test', async () => 'free');
    expect(await other).toBe('free');
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1]);
    expect(limiter.active('example.com')).toBe(2);
    gates[1]!.resolve();
    await jobs[1];
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.resolve();
    expect(await Promise.all(jobs)).toEqual([0, 1, 2, 3, 4]);
    expect(limiter.active('example.com')).toBe(0);
  });

  it('a waiting job whose signal aborts leaves the queue without running', async () => {
    const limiter = new HostLimiter(1);
    const gate = deferred();
    const first = limiter.run('h', () => gate.promise);
    const ac = new AbortController();
    let ran = false;
    const waiting = limiter.run('h', async () => (ran = true), ac.signal);
    ac.abort(new Error('cancelled'));
    await expect(waiting).rejects.toThrow('cancelled');
    gate.resolve();
    await first;
    expect(ran).toBe(false);
    expect(limiter.active('h')).toBe(0);
  });
});
