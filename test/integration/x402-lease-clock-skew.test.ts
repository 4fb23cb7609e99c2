// The x402 settlement lease is decided on PostgreSQL's clock, not the nodes'. Two API nodes (each its own
// store and pool on one schema) run the Settler for one settler account; the second node's clock runs 60 s
// ahead. The first holds the lease with a 30 s TTL; the second, by its own clock, would see it expired
// twice over and take it while the first still settles, so both would send from one account. It must not.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { X402Settings } from '../../src/billing/x402/settings.js';
import { X402Metrics } from '../../src/billing/x402/metrics.js';
import { Settler } from '../../src/billing/x402/settlement.js';
import type { PostgresStore } from '../../src/db/tasks/postgres-store.js';
import { EngineEvents } from '../../src/engine/events.js';
import { createLogger } from '../../src/logger.js';
import type { TaskStore } from '../../src/store/port.js';
import { createTestSchema, type TestSchema } from '../support/postgres.js';

const LEASE = 'x402-settlement:eip155:8453:0xskewtest';
const SKEW_MS = 60_000;

let schema: TestSchema;
const stores: PostgresStore[] = [];

beforeAll(async () => {
  schema = await createTestSchema();
}, 60_000);
afterAll(async () => {
  vi.restoreAllMocks();
  for (const s of stores) await s.close();
  await schema?.drop();
});

/** An API node's Settler on a store of its own; `asks` counts its lease requests. */
async function node() {
  const store = await schema.openStore({ poolSize: 2 });
  stores.push(store);
  let asks = 0;
  const counted = new Proxy(store, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (prop === 'holdLease') return (...args: unknown[]) => (asks++, (v as (...a: unknown[]) => unknown).apply(target, args));
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  }) as unknown as TaskStore;
  const settler = new Settler(
    { store: counted, events: new EngineEvents(), log: createLogger('silent'), metrics: new X402Metrics(), settings: {} as X402Settings, leaseName: LEASE },
    { sweepIntervalMs: 600_000, lease: { ttlMs: 30_000, renewMs: 100 } },
  );
  return { settler, asks: () => asks };
}

async function until(what: string, done: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: not after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const holder = async () => (await schema.query<{ holder: string }>('SELECT holder FROM leader_leases WHERE name = $1', [LEASE]))[0]?.holder;

it('a node whose clock is 60 s ahead cannot take a live settlement lease (PostgreSQL decides by its own clock)', async () => {
  const a = await node();
  a.settler.start();
  try {
    await until('node A leads', () => a.settler.leading);
    const heldBy = await holder();
    expect(heldBy).toMatch(new RegExp(`:${process.pid}:`));

    // Node B's clock is a minute ahead of A's (and of the database's).
    const realNow = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + SKEW_MS);
    const b = await node();
    b.settler.start();
    try {
      // Several asks by B while A keeps renewing: every one refused.
      await until('node B asks five times', () => b.asks() >= 5);
      expect(b.settler.leading).toBe(false);
      expect(await holder()).toBe(heldBy);
      expect(a.settler.leading).toBe(true);
    } finally {
      await b.settler.stop();
    }
  } finally {
    vi.restoreAllMocks();
    await a.settler.stop();
  }
  // A clean stop released the lease.
  expect(await holder()).toBeUndefined();
});
