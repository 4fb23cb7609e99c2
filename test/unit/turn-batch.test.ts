// TurnBatch (src/engine/turn-batch.ts): work of one turn is one write; with a cap on writes in flight,
// work arriving while the cap is reached waits and goes out together as the next write, never as a
// second concurrent one. Writes are promises this test settles by hand, so nothing depends on timing.
import { describe, expect, it } from 'vitest';
import { TurnBatch } from '../../src/engine/turn-batch.js';

/** A write whose calls are recorded and settled by the test. */
function manualWrite() {
  const calls: { items: number[]; done: () => void; fail: (err: Error) => void }[] = [];
  let running = 0;
  let mostRunning = 0;
  const write = (items: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      running++;
      mostRunning = Math.max(mostRunning, running);
      const settle = () => running--;
      calls.push({
        items,
        done: () => (settle(), resolve(items.map((i) => `ok ${i}`))),
        fail: (err) => (settle(), reject(err)),
      });
    });
  return { write, calls, mostRunning: () => mostRunning };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Turns enough for a finished write's follow-up (its settle, then the flush it schedules) to run. */
const afterWrite = async () => {
  for (let i = 0; i < 3; i++) await nextTurn();
};

describe('TurnBatch', () => {
  it('without a cap, each turn is its own write and they run side by side', async () => {
    const w = manualWrite();
    const batch = new TurnBatch(w.write, 10);
    const first = [batch.add(1), batch.add(2)];
    await nextTurn();
    const second = [batch.add(3)];
    await nextTurn();
    expect(w.calls.map((c) => c.items)).toEqual([[1, 2], [3]]);
    expect(w.mostRunning()).toBe(2);
    w.calls.forEach((c) => c.done());
    expect(await Promise.all([...first, ...second])).toEqual(['ok 1', 'ok 2', 'ok 3']);
  });

  it('with one write in flight, later turns wait and go out together once it ends', async () => {
    const w = manualWrite();
    const batch = new TurnBatch(w.write, 10, 1);
    const first = batch.add(1);
    await nextTurn();
    const later = [batch.add(2)];
    await nextTurn();
    later.push(batch.add(3), batch.add(4));
    await nextTurn();
    // Still one write: 2, 3 and 4 wait for it.
    expect(w.calls.map((c) => c.items)).toEqual([[1]]);
    w.calls[0]!.done();
    expect(await first).toBe('ok 1');
    await afterWrite();
    expect(w.calls.map((c) => c.items)).toEqual([[1], [2, 3, 4]]);
    w.calls[1]!.done();
    expect(await Promise.all(later)).toEqual(['ok 2', 'ok 3', 'ok 4']);
    expect(w.mostRunning()).toBe(1);
  });

  it('a failed write rejects only its own callers, and the waiting work still goes out', async () => {
    const w = manualWrite();
    const batch = new TurnBatch(w.write, 10, 1);
    const first = batch.add(1);
    await nextTurn();
    const second = batch.add(2);
    await nextTurn();
    w.calls[0]!.fail(new Error('disk full'));
    await expect(first).rejects.toThrow('disk full');
    await afterWrite();
    expect(w.calls.map((c) => c.items)).toEqual([[1], [2]]);
    w.calls[1]!.done();
    expect(await second).toBe('ok 2');
  });

  it('waiting work larger than a batch goes out in batches of the limit, one at a time', async () => {
    const w = manualWrite();
    const batch = new TurnBatch(w.write, 2, 1);
    const all = [1, 2, 3, 4, 5].map((i) => batch.add(i));
    await nextTurn();
    expect(w.calls.map((c) => c.items)).toEqual([[1, 2]]);
    for (let i = 0; i < 3; i++) {
      w.calls[i]!.done();
      await afterWrite();
    }
    expect(w.calls.map((c) => c.items)).toEqual([[1, 2], [3, 4], [5]]);
    expect(await Promise.all(all)).toEqual(['ok 1', 'ok 2', 'ok 3', 'ok 4', 'ok 5']);
    expect(w.mostRunning()).toBe(1);
  });
});
