// The timed value chain.ts holds the settler's fee estimate and account nonce in (timed-value.ts), on a
// clock the test moves.
import { describe, expect, it } from 'vitest';
import { TimedValue } from '../../src/billing/x402/timed-value.js';

function clocked(ttlMs: number) {
  const clock = { t: 1_000 };
  return { clock, v: new TimedValue<number>(ttlMs, () => clock.t) };
}

describe('TimedValue', () => {
  it('serves a value for its window from when it was asked for, then no more', () => {
    const { clock, v } = clocked(2_000);
    expect(v.get()).toBeUndefined();
    const askedAt = clock.t;
    clock.t += 500; // the answer came later than the question
    v.set(7, askedAt);
    clock.t = askedAt + 1_999;
    expect(v.get()).toBe(7);
    clock.t = askedAt + 2_000;
    expect(v.get()).toBeUndefined();
  });

  it('takes afresh only once the window has passed', () => {
    const { clock, v } = clocked(2_000);
    let takes = 0;
    const take = () => ++takes;
    expect(v.getOrSet(take)).toBe(1);
    clock.t += 1_999;
    expect(v.getOrSet(take)).toBe(1);
    clock.t += 1;
    expect(v.getOrSet(take)).toBe(2);
    expect(takes).toBe(2);
  });

  it('counts a held value on without renewing its window, and holds nothing once dropped', () => {
    const { clock, v } = clocked(2_000);
    v.update(5);
    expect(v.get()).toBeUndefined();
    v.set(10);
    clock.t += 1_500;
    v.update(11);
    expect(v.get()).toBe(11);
    clock.t += 500;
    expect(v.get()).toBeUndefined();
    v.set(12);
    v.drop();
    expect(v.get()).toBeUndefined();
    expect(v.getOrSet(() => 13)).toBe(13);
  });
});
