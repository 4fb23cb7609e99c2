// A batch of email.verify inputs is created domain by domain: the store hands workers one domain's
// addresses together (what lets them share SMTP sessions), while results still come back in input order.
// Real SQLite store, workers off so the claims are ours to make.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { submitBatch } from '../../src/engine/batches.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { testConfig } from '../support/tool-context.js';

let rt: Runtime;
beforeAll(async () => {
  rt = await createRuntime(testConfig({ WORKERS: 'false' }));
});
afterAll(async () => {
  await rt?.close();
});

describe('batch claim order', () => {
  it('claims group the addresses of one domain; items keep input order', async () => {
    const domains = ['a.test', 'b.test', 'c.test'];
    const emails = Array.from({ length: 12 }, (_, i) => `user${i}@${domains[i % 3]}`);
    const batch = await submitBatch(rt.engine, 'email.verify', emails.map((email) => ({ email })), { payer: { kind: 'local', id: 'test' }, free: true });
    const claimed = await rt.store.claimTasks({ owner: 'test', limit: 12, leaseMs: 60_000, now: Date.now(), onlyTools: ['email.verify'] });
    const claimedDomains = claimed.map((t) => (t.input as { email: string }).email.split('@')[1]);
    expect(claimedDomains).toEqual([...Array(4).fill('a.test'), ...Array(4).fill('b.test'), ...Array(4).fill('c.test')]);
    const items = await rt.store.listBatchItems(batch.id, 0, 100);
    expect(items.map((i) => (i.task!.input as { email: string }).email)).toEqual(emails);
  });
});
