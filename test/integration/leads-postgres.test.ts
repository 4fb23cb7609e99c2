// The lead service end to end with DATABASE_URL set: two nodes on one PostgreSQL schema (shared with the
// task store's tables), registration, a search and a request over HTTP, the notification delivered once,
// and a duplicate caught across nodes. Nothing is written to SQLite.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProInput } from '../../src/leads/types.js';
import { api, registerKey, startLeadsForTest, type LeadsUnderTest } from '../support/leads-harness.js';
import { createTestSchema, type TestSchema } from '../support/postgres.js';

let schema: TestSchema;
let a: LeadsUnderTest;
let b: LeadsUnderTest;

beforeAll(async () => {
  schema = await createTestSchema();
  // Started together: both run the lead migrations at once (the advisory lock makes that safe).
  [a, b] = await Promise.all([startLeadsForTest({ env: schema.env }), startLeadsForTest({ env: schema.env })]);
});

afterAll(async () => {
  await a?.close();
  await b?.close();
  await schema?.drop();
});

async function searchAndWait(t: LeadsUnderTest, key: string, body: Record<string, unknown>) {
  const created = await api(t.url, 'POST', '/v1/searches', { key, body });
  expect(created.status).toBe(202);
  for (;;) {
    const polled = await api(t.url, 'GET', `/v1/searches/${String(created.body.search_id)}`, { key });
    if (polled.body.status !== 'pending') return polled;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('lead service on PostgreSQL', () => {
  it('keeps its tables and migrations in the PostgreSQL schema, beside the task store, and no SQLite file', async () => {
    expect(a.svc.store.dialect).toBe('postgres');
    // One ledger for every component.
    expect(await schema.query("SELECT version FROM db_migrations WHERE component = 'leads'")).toEqual([{ version: 1 }, { version: 3 }]);
    // The demo directory was seeded once, although two nodes started on an empty database.
    const pros = await schema.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM pros WHERE is_demo');
    expect(pros[0]!.n).toBeGreaterThan(0);
    expect((await a.svc.store.directoryStats()).demo).toBe(pros[0]!.n);
    expect(fs.existsSync(path.join(a.config.dataDir, 'leads.db'))).toBe(false);
  });

  it('registers on one node, searches and requests on the other, notifies once and dedups across nodes', async () => {
    const key = await registerKey(a, 'pg-agent@agent-utility.test');
    // Real (imported) pros replace the demo ones; their e-mail goes to a node's mail catcher.
    const now = Date.now();
    const real = (externalId: string, lat: number, rating: number): ProInput => ({
      externalId,
      name: `PG ${externalId}`,
      services: ['plumber'],
      zip: '10001',
      lat,
      lng: -73.9967,
      phone: '+12125550100',
      email: `${externalId}@pros.test`,
      webhookUrl: null,
      webhookSecret: null,
      address: null,
      rating,
      reviewCount: 5,
      website: null,
      description: null,
      isDemo: false,
    });
    await a.svc.store.upsertPros([real('pg-far', 40.8484, 5), real('pg-near', 40.7504, 3), real('pg-mid', 40.7784, 4)], { replace: false, now });
    const found = await searchAndWait(b, key, { service: 'plumber', zip: '10001', limit: 2 });
    expect(found.body).toMatchObject({ status: 'complete', meta: { total: 3, dataset: 'imported', service: 'plumber', zip: '10001' } });
    const results = found.body.results as { id: string; name: string; distance_miles: number }[];
    expect(results.map((r) => r.name)).toEqual(['PG pg-near', 'PG pg-mid']);

    const proId = results[0]!.id;
    const body = { pro_id: proId, name: 'Pat Postgres', phone: '(201) 555-0188', notes: 'Burst pipe under the sink.', zip: '10001' };
    const created = await api(b.url, 'POST', '/v1/requests', { key, body, headers: { 'idempotency-key': 'pg-e2e-1' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ request_id: expect.stringMatching(/^req_/), pro_id: proId, duplicate: false });
    const requestId = String(created.body.request_id);

    // The same request through the other node: a duplicate, nobody notified again.
    const dup = await api(a.url, 'POST', '/v1/requests', { key, body: { ...body, notes: 'Burst pipe, again.' } });
    expect(dup.status).toBe(200);
    expect(dup.body).toMatchObject({ request_id: requestId, duplicate: true });

    // Both nodes' dispatchers drain the one outbox; the delivery is leased by one and done once.
    const status = await (async () => {
      for (;;) {
        const s = await api(a.url, 'GET', `/v1/requests/${requestId}`, { key });
        if (s.body.delivery_status !== 'pending') return s;
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const deliveries = status.body.deliveries as { channel: string; status: string; attempts: number }[];
    expect(deliveries.length).toBeGreaterThan(0);
    expect(deliveries).toEqual([expect.objectContaining({ channel: 'email', status: 'delivered', attempts: 1 })]);
    const sent = [...a.mail.messages, ...b.mail.messages].filter((m) => m.to.includes('pg-near@pros.test'));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain(requestId);
    // The notifications are rows of the service's one outbox (webhook_outbox), next to the task webhooks.
    const rows = await schema.query<{ status: string; attempts: number }>(
      "SELECT status, attempts FROM webhook_outbox WHERE subject_kind = 'lead_request' AND subject_id = $1",
      [requestId],
    );
    expect(rows.length).toBe(deliveries.length);
    const requests = await schema.query<{ n: number }>('SELECT COUNT(*)::int AS n FROM requests WHERE phone = $1', ['+12015550188']);
    expect(requests[0]!.n).toBe(1);

    // An idempotent retry returns the same request; the same key with another body is refused.
    const replay = await api(a.url, 'POST', '/v1/requests', { key, body, headers: { 'idempotency-key': 'pg-e2e-1' } });
    expect(replay.body).toMatchObject({ request_id: requestId });
    const reused = await api(a.url, 'POST', '/v1/requests', { key, body: { ...body, notes: 'Something else.' }, headers: { 'idempotency-key': 'pg-e2e-1' } });
    expect(reused.status).toBe(422);

    const usage = await api(b.url, 'GET', '/v1/usage', { key });
    expect(usage.body).toMatchObject({ searches: { used: 1 }, requests: { used: 1 } });
  });
});
