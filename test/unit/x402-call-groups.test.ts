// Group commit of the settler's transfers (call-groups.ts): the calls made in one turn go as one group (up to
// maxSize); calls made while a group is under way wait for it and go together as the next; one group at a
// time; each caller gets its own item's result; a group that fails as a whole fails each of its calls.
import { expect, it } from 'vitest';
import { CallGroups } from '../../src/billing/x402/call-groups.js';

/** A handler whose groups end only when the test says so. */
function gated() {
  const groups: number[][] = [];
  const release: (() => void)[] = [];
  const calls = new CallGroups<number, string>({
    maxSize: 3,
    run: (items) => {
      groups.push(items);
      return new Promise((resolve) => release.push(() => resolve(items.map((i) => ({ status: 'fulfilled', value: `done ${i}` })))));
    },
  });
  return { calls, groups, release };
}

const turn = () => new Promise((r) => setImmediate(r));

it('sends the calls of one turn together, up to the group size; those made meanwhile go as the next group, one group at a time', async () => {
  const { calls, groups, release } = gated();
  const first = [1, 2, 3, 4].map((i) => calls.add(i));
  await turn();
  expect(groups).toEqual([[1, 2, 3]]);
  const later = [5, 6].map((i) => calls.add(i));
  await turn();
  // 4 waits for the group under way, and 5 and 6 with it.
  expect(groups).toEqual([[1, 2, 3]]);
  release.shift()!();
  await turn();
  expect(groups).toEqual([
    [1, 2, 3],
    [4, 5, 6],
  ]);
  release.shift()!();
  expect(await Promise.all([...first, ...later])).toEqual(['done 1', 'done 2', 'done 3', 'done 4', 'done 5', 'done 6']);
});

it('sends a lone call on the next turn, without waiting for company', async () => {
  const { calls, groups, release } = gated();
  const one = calls.add(7);
  await turn();
  expect(groups).toEqual([[7]]);
  release.shift()!();
  expect(await one).toBe('done 7');
  // Idle again: the next call starts its own group.
  const two = calls.add(8);
  await turn();
  expect(groups).toEqual([[7], [8]]);
  release.shift()!();
  expect(await two).toBe('done 8');
});

function answering(run: (items: number[]) => Promise<PromiseSettledResult<string>[]>) {
  return new CallGroups<number, string>({ maxSize: 3, run });
}

it('fails only the call whose item failed, and every call of a group whose handler threw', async () => {
  const calls = answering((items) =>
    Promise.resolve(items.map((i) => (i === 2 ? { status: 'rejected', reason: new Error('two failed') } : { status: 'fulfilled', value: `done ${i}` }))),
  );
  const results = await Promise.allSettled([1, 2, 3].map((i) => calls.add(i)));
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('two failed'));

  const broken = answering(() => Promise.reject(new Error('node unreachable')));
  const all = await Promise.allSettled([1, 2, 3, 4].map((i) => broken.add(i)));
  // The group after a failed one still runs (and fails alike here).
  expect(all.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : 'fulfilled'))).toEqual([
    'node unreachable',
    'node unreachable',
    'node unreachable',
    'node unreachable',
  ]);
});

it('fails a call its group returned no result for, rather than leaving it waiting', async () => {
  const calls = answering(() => Promise.resolve([{ status: 'fulfilled', value: 'only one' }]));
  const results = await Promise.allSettled([1, 2, 3].map((i) => calls.add(i)));
  expect(results[0]).toEqual({ status: 'fulfilled', value: 'only one' });
  expect(results.slice(1).map((r) => r.status)).toEqual(['rejected', 'rejected']);
});

it('refuses a group size below one', () => {
  expect(() => new CallGroups({ maxSize: 0, run: () => Promise.resolve([]) })).toThrow(RangeError);
});
