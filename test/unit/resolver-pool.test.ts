// The pooled resolvers dns.lookup runs on: reused after a lookup that answered, never after one that
// was cancelled or failed, and a cancel reaches only the resolver of the task that was aborted.
import type { Resolver } from 'node:dns/promises';
import { describe, expect, it } from 'vitest';
import { ResolverPool } from '../../src/net/resolver-pool.js';

/** A resolver stand-in that counts its cancels (the pool only hands it on and cancels it). */
function fakeResolver(): Resolver & { cancels: number } {
  const r = { cancels: 0, cancel: () => void r.cancels++ };
  return r as unknown as Resolver & { cancels: number };
}

function poolOfFakes() {
  const made: ReturnType<typeof fakeResolver>[] = [];
  const pool = new ResolverPool(() => {
    const r = fakeResolver();
    made.push(r);
    return r;
  });
  return { pool, made };
}

describe('ResolverPool', () => {
  it('reuses a resolver once its lookup has answered', async () => {
    const { pool, made } = poolOfFakes();
    const first = await pool.use(new AbortController().signal, async (r) => r);
    const second = await pool.use(new AbortController().signal, async (r) => r);
    expect(second).toBe(first);
    expect(made).toHaveLength(1);
    expect(made[0]!.cancels).toBe(0);
  });

  it('gives lookups that run at the same time resolvers of their own', async () => {
    const { pool, made } = poolOfFakes();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const a = pool.use(new AbortController().signal, async (r) => {
      await held;
      return r;
    });
    const b = pool.use(new AbortController().signal, async (r) => r);
    const rb = await b;
    release();
    expect(await a).not.toBe(rb);
    expect(made).toHaveLength(2);
  });

  it("cancels an aborted task's resolver, and only that one, and never reuses it", async () => {
    const { pool, made } = poolOfFakes();
    const ctl = new AbortController();
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    let release!: () => void;
    const other = pool.use(new AbortController().signal, () => new Promise<void>((r) => (release = r)));
    const aborted = pool.use(ctl.signal, async () => {
      started();
      await new Promise((r) => setTimeout(r, 1));
      ctl.signal.throwIfAborted();
    });
    await running;
    ctl.abort(new Error('cancelled'));
    await expect(aborted).rejects.toThrow('cancelled');
    release();
    await other;
    const [otherResolver, abortedResolver] = made;
    expect(abortedResolver!.cancels).toBeGreaterThan(0);
    expect(otherResolver!.cancels).toBe(0);
    expect(pool.idleCount).toBe(1);
    expect(await pool.use(new AbortController().signal, async (r) => r)).toBe(otherResolver);
  });

  it('drops a resolver whose lookup failed (a query may still be outstanding)', async () => {
    const { pool, made } = poolOfFakes();
    await expect(pool.use(new AbortController().signal, () => Promise.reject(new Error('SERVFAIL')))).rejects.toThrow('SERVFAIL');
    expect(made[0]!.cancels).toBe(1);
    expect(pool.idleCount).toBe(0);
  });

  it('refuses a task already aborted without making a resolver', async () => {
    const { pool, made } = poolOfFakes();
    const ctl = new AbortController();
    ctl.abort(new Error('too late'));
    await expect(pool.use(ctl.signal, async () => 1)).rejects.toThrow('too late');
    expect(made).toHaveLength(0);
  });
});
