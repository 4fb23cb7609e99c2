// A batch of email.verify inputs is created domain by domain: the store hands workers one domain's
// addresses together (what lets them share SMTP sessions), while results still come back in input order.
// Real stores (SQLite and PostgreSQL), workers off so the claims are ours to make.
import { afterAll, describe, expect, it } from 'vitest';
import { submitBatch } from '../../src/engine/batches.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import type { TaskStore } from '../../src/store/port.js';
import { storeFactories } from '../support/store-factories.js';
import { testConfig } from '../support/tool-context.js';

const runtimes: Runtime[] = [];
afterAll(async () => {
  for (const rt of runtimes) await rt.close();
});

const stores: { name: string; open: () => Promise<TaskStore | undefined> }[] = [{ name: 'sqlite', open: async () => undefined }, ...storeFactories];

describe.each(stores)('batch claim order ($name)', ({ open }) => {
  it('claims group the addresses of one domain; items keep input order', async () => {
    const store = await open();
    const rt = await createRuntime(testConfig({ WORKERS: 'false' }), store ? { store } : {});
    runtimes.push(rt);
    const domains = ['a.test', 'b.test', 'c.test'];
    const emails = Array.from({ length: 12 }, (_, i) => `user${i}@${domains[i % 3]}`);
    const batch = await submitBatch(
      rt.engine,
      'email.verify',
      emails.map((email) => ({ email })),
      { payer: { kind: 'local', id: 'test' }, free: true },
    );
    const claimed = await rt.store.claimTasks({ owner: 'test', limit: 12, leaseMs: 60_000, now: Date.now(), onlyTools: ['email.verify'] });
    const claimedDomains = claimed.map((t) => (t.input as { email: string }).email.split('@')[1]);
    expect(claimedDomains).toEqual([...Array(4).fill('a.test'), ...Array(4).fill('b.test'), ...Array(4).fill('c.test')]);
    const items = await rt.store.listBatchItems(batch.id, 0, 100);
    expect(items.map((i) => (i.task!.input as { email: string }).email)).toEqual(emails);
  });
});
