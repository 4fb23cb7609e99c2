// The notification outbox survives crashes: request and deliveries commit together or not at all, a
// delivery claimed by a process that died is taken over when its lease lapses, and deliveries written
// before a restart are sent by the next process.
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebhookStore } from '../../src/db/webhooks/webhook-store.js';
import { proIdFor } from '../../src/leads/ids.js';
import { createRuntime } from '../../src/runtime.js';
import { deliveriesFor } from '../../src/leads/notifications.js';
import { openSqliteLeadStore, type SqliteLeadStore } from '../../src/leads/db/lead-store.js';
import type { ProInput, RequestRecord } from '../../src/leads/types.js';
import { startLeadsForTest, type LeadsUnderTest } from '../support/leads-harness.js';
import { testConfig } from '../support/tool-context.js';

const RETRY = { emailMaxAttempts: 3, webhookMaxAttempts: 3 };

function proInput(): ProInput {
  return {
    externalId: 'outbox-pro',
    name: 'Outbox Plumbing',
    services: ['plumber'],
    zip: '10001',
    lat: 40.7484,
    lng: -73.9967,
    phone: null,
    email: 'outbox@pros.test',
    webhookUrl: null,
    webhookSecret: null,
    address: null,
    rating: null,
    reviewCount: null,
    website: null,
    description: null,
    isDemo: false,
  };
}

function requestFor(id: string, now: number): RequestRecord {
  return {
    id,
    accountId: 'acct_test',
    proId: proIdFor('outbox-pro'),
    proName: 'Outbox Plumbing',
    category: 'plumber',
    zip: '10001',
    name: 'Ana',
    phone: '+12015550123',
    email: null,
    notes: 'Dripping tap',
    consent: { text: 'ok', given_at: new Date(now).toISOString(), submitted_by: 'acct_test', ip: null },
    isDemo: false,
    createdAt: now,
  };
}

const stores: SqliteLeadStore[] = [];
const services: LeadsUnderTest[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const s of services.splice(0)) await s.close();
});

describe('lead notification outbox', () => {
  it('writes a request and its deliveries in one transaction', async () => {
    const config = testConfig();
    const store = await openSqliteLeadStore(path.join(config.dataDir, 'leads.db'));
    stores.push(store);
    await store.upsertPros([proInput()], { replace: false, now: Date.now() });
    const pro = (await store.getPro(proIdFor('outbox-pro')))!;
    const now = Date.now();
    const r1 = requestFor('req_one', now);
    const d1 = deliveriesFor(r1, pro, RETRY);
    await store.createRequest({ request: r1, deliveries: d1, dedupSince: now - 1 });
    expect(await store.listDeliveries('req_one')).toHaveLength(1);

    // A second request whose delivery row cannot be written (its id collides) leaves nothing behind.
    const r2 = { ...requestFor('req_two', now), phone: '+12015550124' };
    const d2 = deliveriesFor(r2, pro, RETRY).map((d) => ({ ...d, id: d1[0]!.id }));
    await expect(store.createRequest({ request: r2, deliveries: d2, dedupSince: now - 1 })).rejects.toThrow();
    expect(await store.getRequest('req_two')).toBeUndefined();
  });

  it('takes over a delivery whose claimer died once the lease lapses', async () => {
    const config = testConfig();
    const store = await openSqliteLeadStore(path.join(config.dataDir, 'leads.db'));
    stores.push(store);
    await store.upsertPros([proInput()], { replace: false, now: 0 });
    const pro = (await store.getPro(proIdFor('outbox-pro')))!;
    const r = requestFor('req_lease', 1_000);
    await store.createRequest({ request: r, deliveries: deliveriesFor(r, pro, RETRY), dedupSince: 0 });

    // Lead notifications are rows of the service's one outbox, claimed by its dispatcher's store.
    const outbox = new WebhookStore(store.db);
    const claimed = await outbox.claimDue('first', 2_000, 60_000, 10, ['lead_request']);
    expect(claimed).toHaveLength(1);
    // The claimer "crashes": nothing is marked. Inside the lease (on the store's clock) nobody else may take
    // it, even a claimer whose own clock is past the lease's end…
    expect(await outbox.claimDue('second', 30_000, 60_000, 10, ['lead_request'])).toHaveLength(0);
    expect(await outbox.claimDue('second', 62_001, 60_000, 10, ['lead_request'])).toHaveLength(0);
    // …after it (the lease moved back a minute and a second, as if that much passed on the store's clock), the next claimer does.
    await store.db.run('UPDATE webhook_outbox SET lease_until = lease_until - 61000 WHERE lease_until IS NOT NULL');
    const retaken = await outbox.claimDue('second', 62_001, 60_000, 10, ['lead_request']);
    expect(retaken.map((d) => d.id)).toEqual(claimed.map((d) => d.id));
  });

  it('deliveries written before a restart are sent by the next process', async () => {
    const first = await startLeadsForTest();
    const dataDir = first.config.dataDir;
    await first.close();

    // Written while no service runs (as if the process died right after committing the request).
    const store = await openSqliteLeadStore(path.join(dataDir, 'leads.db'));
    await store.upsertPros([proInput()], { replace: false, now: Date.now() });
    const pro = (await store.getPro(proIdFor('outbox-pro')))!;
    const r = requestFor('req_restart', Date.now());
    await store.createRequest({ request: r, deliveries: deliveriesFor(r, pro, RETRY), dedupSince: 0 });
    await store.close();

    const second = await startLeadsForTest({ env: { DATA_DIR: dataDir } });
    services.push(second);
    const mail = await second.mail.waitFor((m) => m.to.includes('outbox@pros.test'), 'mail for the request written before the restart');
    expect(mail.text).toContain('req_restart');
  });

  it("in one process, the runtime's outbox dispatcher sends the lead notifications (one loop)", async () => {
    const leads = await startLeadsForTest();
    services.push(leads);
    // A runtime on the same DATA_DIR: its task store holds the outbox the lead store writes to.
    const rt = await createRuntime(leads.config, { workers: true });
    try {
      expect(rt.webhooks).toBeDefined();
      expect(await leads.svc.shareDispatcher(rt.webhooks!)).toBe(true);
      await leads.svc.store.upsertPros([proInput()], { replace: false, now: Date.now() });
      const pro = (await leads.svc.store.getPro(proIdFor('outbox-pro')))!;
      const r = requestFor('req_shared_loop', Date.now());
      await leads.svc.store.createRequest({ request: r, deliveries: deliveriesFor(r, pro, RETRY), dedupSince: 0 });
      rt.webhooks!.wake();
      const mail = await leads.mail.waitFor((m) => m.to.includes('outbox@pros.test'), 'mail sent by the shared loop');
      expect(mail.text).toContain('req_shared_loop');
      // The row is marked after the mail server accepted the message, so it can still read 'sending' here.
      await vi.waitFor(
        async () => {
          const [d] = await leads.svc.store.listDeliveries('req_shared_loop');
          expect(d).toMatchObject({ channel: 'email', status: 'delivered', attempts: 1 });
        },
        { timeout: 20_000, interval: 20 },
      );
    } finally {
      await rt.close();
    }
  });

  it('a runtime on another database does not take the lead notifications over', async () => {
    const leads = await startLeadsForTest();
    services.push(leads);
    const rt = await createRuntime(testConfig(), { workers: true });
    try {
      expect(await leads.svc.shareDispatcher(rt.webhooks!)).toBe(false);
    } finally {
      await rt.close();
    }
  });
});
