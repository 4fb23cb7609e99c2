// Requests against a running lead service: the pro is notified by e-mail (captured by a real SMTP server)
// and by a signed webhook (a loopback receiver checks the signature itself); failing receivers are retried
// with backoff; duplicates and idempotent retries notify nobody again.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newApiKey } from '../../src/leads/auth.js';
import { proIdFor } from '../../src/leads/ids.js';
import type { ProInput } from '../../src/leads/types.js';
import { api, LEAD_STORES, startLeadsForTest, startWebhookReceiver, type LeadsUnderTest, type WebhookReceiver } from '../support/leads-harness.js';

const SECRET = 'whsec-test-0123456789abcdef';

function pro(externalId: string, over: Partial<ProInput> = {}): ProInput {
  return {
    externalId,
    name: `Pro ${externalId}`,
    services: ['plumber', 'electrician'],
    zip: '10001',
    lat: 40.7484,
    lng: -73.9967,
    phone: '+12125550100',
    email: `${externalId}@pros.test`,
    webhookUrl: null,
    webhookSecret: null,
    address: null,
    rating: 4.5,
    reviewCount: 10,
    website: null,
    description: null,
    isDemo: false,
    ...over,
  };
}

/** The receiver's own check, written from the documentation rather than by calling our verify function. */
function signatureValid(h: { headers: Record<string, string | string[] | undefined>; body: string }, secret: string): boolean {
  const ts = String(h.headers['x-leads-timestamp']);
  const expected = `v1=${createHmac('sha256', secret).update(`${ts}.${h.body}`).digest('hex')}`;
  return h.headers['x-leads-signature'] === expected && Math.abs(Date.now() / 1000 - Number(ts)) < 300;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const body = (proId: string, over: Record<string, unknown> = {}) => ({
  pro_id: proId,
  name: 'Sam Lee',
  phone: '(201) 555-0123',
  email: 'sam@agent-utility.test',
  notes: 'The kitchen has a leaky faucet; mornings are best.',
  zip: '10001',
  ...over,
});

describe.each(LEAD_STORES)('requests and notifications (%s store)', (store) => {
  let t: LeadsUnderTest;
  let key: string;
  let okHook: WebhookReceiver;
  let flakyHook: WebhookReceiver;
  let deadHook: WebhookReceiver;

  beforeAll(async () => {
    okHook = await startWebhookReceiver();
    flakyHook = await startWebhookReceiver((n) => (n <= 2 ? 503 : 200));
    deadHook = await startWebhookReceiver(() => 500);
    t = await startLeadsForTest({
      store,
      overrides: { retry: { emailMaxAttempts: 3, webhookMaxAttempts: 3 }, limits: { searchesPerDay: 100, requestsPerDay: 4, categoriesPerDay: 10 } },
    });
    await t.svc.store.upsertPros(
      [
        pro('hooked', { webhookUrl: okHook.url, webhookSecret: SECRET }),
        pro('flaky', { webhookUrl: flakyHook.url, webhookSecret: SECRET, email: null }),
        pro('dead', { webhookUrl: deadHook.url, webhookSecret: SECRET, email: null }),
        pro('private', { webhookUrl: 'http://10.0.0.1/hook', webhookSecret: SECRET, email: null }),
        pro('mail-only'),
      ],
      { replace: false, now: Date.now() },
    );
    const k = newApiKey();
    await t.svc.store.issueKey('agent@agent-utility.test', k, Date.now());
    key = k.key;
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all([okHook?.close(), flakyHook?.close(), deadHook?.close()]);
  });

  it('notifies by e-mail and a signed webhook, and shows per-channel delivery', async () => {
    const proId = proIdFor('hooked');
    const res = await api(t.url, 'POST', '/v1/requests', { key, body: body(proId) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      request_id: expect.stringMatching(/^req_/),
      status: 'submitted',
      pro_id: proId,
      pro_name: 'Pro hooked',
      service: 'plumber',
      duplicate: false,
    });
    expect(String(res.body.message)).toContain('Pro hooked');

    const mail = await t.mail.waitFor((m) => m.to.includes('hooked@pros.test'), 'notification mail');
    expect(mail.text).toContain('Sam Lee');
    expect(mail.text).toContain('+12015550123');
    expect(mail.text).toContain('leaky faucet');
    expect(mail.text).toContain(String(res.body.request_id));

    const hook = await waitFor('webhook', async () => okHook.received[0]);
    expect(signatureValid(hook, SECRET)).toBe(true);
    expect(signatureValid(hook, 'some-other-secret-000000')).toBe(false);
    expect(signatureValid({ ...hook, body: hook.body.replace('Sam Lee', 'Eve') }, SECRET)).toBe(false);
    const event = JSON.parse(hook.body) as { type: string; data: Record<string, unknown> };
    expect(event.type).toBe('request.created');
    expect(event.data).toMatchObject({
      request_id: res.body.request_id,
      pro_id: proId,
      service: 'plumber',
      requester: { name: 'Sam Lee', phone: '+12015550123', email: 'sam@agent-utility.test' },
    });

    const status = await waitFor('both channels delivered', async () => {
      const s = await api(t.url, 'GET', `/v1/requests/${String(res.body.request_id)}`, { key });
      return s.body.delivery_status === 'delivered' ? s : undefined;
    });
    expect(status.body.deliveries).toEqual([
      expect.objectContaining({ channel: 'email', status: 'delivered', attempts: 1 }),
      expect.objectContaining({ channel: 'webhook', status: 'delivered', attempts: 1 }),
    ]);
    // The tracking view carries no requester details.
    expect(JSON.stringify(status.body)).not.toContain('555-0123');
    expect(JSON.stringify(status.body)).not.toContain('Sam Lee');
  });

  it('deduplicates the same phone + pro + service within 24 h, without notifying again', async () => {
    const proId = proIdFor('mail-only');
    const first = await api(t.url, 'POST', '/v1/requests', { key, body: body(proId, { service: 'plumber' }) });
    expect(first.status).toBe(201);
    await t.mail.waitFor((m) => m.to.includes('mail-only@pros.test'), 'first mail');

    // Same phone written differently, same service inferred from the notes.
    const again = await api(t.url, 'POST', '/v1/requests', { key, body: body(proId, { phone: '+1 201-555-0123', notes: 'Leaky faucet again, please call.' }) });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ request_id: first.body.request_id, duplicate: true });
    expect(String(again.body.message)).toMatch(/not notified again/);

    // A different service is a different request.
    const electric = await api(t.url, 'POST', '/v1/requests', { key, body: body(proId, { service: 'electrician' }) });
    expect(electric.status).toBe(201);
    expect(electric.body.request_id).not.toBe(first.body.request_id);
    await t.mail.waitFor((m) => m.to.includes('mail-only@pros.test') && m.text.includes(String(electric.body.request_id)), 'electrician mail');
    expect(t.mail.messages.filter((m) => m.to.includes('mail-only@pros.test'))).toHaveLength(2);
  });

  it('honours Idempotency-Key: a retry returns the first request; another body with the same key is refused', async () => {
    const proId = proIdFor('mail-only');
    const idem = { 'idempotency-key': 'task_idem_1' };
    const b = body(proId, { phone: '(201) 555-0177', service: 'electrician' });
    const first = await api(t.url, 'POST', '/v1/requests', { key, body: b, headers: idem });
    expect(first.status).toBe(201);
    const retry = await api(t.url, 'POST', '/v1/requests', { key, body: b, headers: idem });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.request_id).toBe(first.body.request_id);
    expect(retry.body.message).toBe(first.body.message);
    const other = await api(t.url, 'POST', '/v1/requests', { key, body: { ...b, notes: 'something else' }, headers: idem });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // The task service's rule for the header, in its words: one sentence naming the header.
    const spaced = await api(t.url, 'POST', '/v1/requests', { key, body: b, headers: { 'idempotency-key': 'has spaces' } });
    expect(spaced.status).toBe(400);
    expect(spaced.body).toMatchObject({ error: 'Idempotency-Key must be printable ASCII without spaces', field: 'Idempotency-Key' });
  });

  it('retries a failing webhook with backoff until it succeeds', async () => {
    const res = await api(t.url, 'POST', '/v1/requests', { key: t.svc.internalApiKey, body: body(proIdFor('flaky')) });
    expect(res.status).toBe(201);
    const done = await waitFor('flaky webhook delivered', async () => {
      const s = await api(t.url, 'GET', `/v1/requests/${String(res.body.request_id)}`, { key: t.svc.internalApiKey });
      return s.body.delivery_status === 'delivered' ? s : undefined;
    });
    expect(done.body.deliveries).toEqual([expect.objectContaining({ channel: 'webhook', status: 'delivered', attempts: 3, last_error: null })]);
    expect(flakyHook.received).toHaveLength(3);
    // The same event (same delivery id), signed afresh each time.
    const ids = new Set(flakyHook.received.map((h) => h.headers['x-leads-delivery']));
    expect(ids.size).toBe(1);
    for (const h of flakyHook.received) expect(signatureValid(h, SECRET)).toBe(true);
  });

  it('gives up after the attempt budget and reports the failure per channel', async () => {
    const res = await api(t.url, 'POST', '/v1/requests', { key: t.svc.internalApiKey, body: body(proIdFor('dead')) });
    const failed = await waitFor('dead webhook failed', async () => {
      const s = await api(t.url, 'GET', `/v1/requests/${String(res.body.request_id)}`, { key: t.svc.internalApiKey });
      return s.body.delivery_status === 'failed' ? s : undefined;
    });
    expect(failed.body.deliveries).toEqual([
      expect.objectContaining({ channel: 'webhook', status: 'failed', attempts: 3, last_error: 'webhook answered HTTP 500' }),
    ]);
    expect(deadHook.received).toHaveLength(3);
  });

  it('a webhook to a private address is refused by the network guard, once, without retrying', async () => {
    const res = await api(t.url, 'POST', '/v1/requests', { key: t.svc.internalApiKey, body: body(proIdFor('private')) });
    const failed = await waitFor('private webhook refused', async () => {
      const s = await api(t.url, 'GET', `/v1/requests/${String(res.body.request_id)}`, { key: t.svc.internalApiKey });
      return s.body.delivery_status === 'failed' ? s : undefined;
    });
    const [d] = failed.body.deliveries as { attempts: number; last_error: string }[];
    expect(d?.attempts).toBe(1);
    expect(d?.last_error).toMatch(/Blocked target|Blocked: private address/);
  });

  it('validates: unknown pro, bad phone, a service the pro does not offer, missing fields', async () => {
    const unknown = await api(t.url, 'POST', '/v1/requests', { key, body: body('pro_doesnotexist') });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'UNKNOWN_PRO', field: 'pro_id' });
    const phone = await api(t.url, 'POST', '/v1/requests', { key, body: body(proIdFor('hooked'), { phone: '12345' }) });
    expect(phone.status).toBe(400);
    expect(phone.body).toMatchObject({ code: 'INVALID_PHONE', field: 'phone' });
    const service = await api(t.url, 'POST', '/v1/requests', { key, body: body(proIdFor('hooked'), { service: 'roofer' }) });
    expect(service.status).toBe(400);
    expect(service.body).toMatchObject({ code: 'SERVICE_NOT_OFFERED', field: 'service' });
    const missing = await api(t.url, 'POST', '/v1/requests', { key, body: { pro_id: proIdFor('hooked'), name: 'Sam', phone: '2015550123' } });
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe('notes');
  });

  it("the 5th request of the day is over this test's quota of 4 (duplicates are not counted)", async () => {
    const usage = await api(t.url, 'GET', '/v1/usage', { key });
    // Created so far with this key: hooked, mail-only plumber, mail-only electrician, the idempotent one.
    expect(usage.body.requests).toEqual({ used: 4, limit: 4 });
    const over = await api(t.url, 'POST', '/v1/requests', { key, body: body(proIdFor('hooked'), { phone: '(201) 555-0188' }) });
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBeTruthy();
    expect(over.headers.get('ratelimit-remaining')).toBe('0');
  });
});

describe('requests to demo pros', () => {
  let demo: LeadsUnderTest;
  beforeAll(async () => {
    demo = await startLeadsForTest();
  });
  afterAll(async () => {
    await demo?.close();
  });

  it('are recorded with their consent but notify nobody', async () => {
    const proId = proIdFor('demo-10001-plumber-1');
    const res = await api(demo.url, 'POST', '/v1/requests', { key: demo.svc.internalApiKey, body: body(proId) });
    expect(res.status).toBe(201);
    expect(String(res.body.message)).toMatch(/demo listing.*no real business was contacted/);
    const s = await api(demo.url, 'GET', `/v1/requests/${String(res.body.request_id)}`, { key: demo.svc.internalApiKey });
    expect(s.body).toMatchObject({ is_demo: true, delivery_status: 'skipped' });
    const stored = await demo.svc.store.getRequest(String(res.body.request_id));
    expect(stored?.consent.text).toMatch(/^I agree to be contacted by .* \(Demo\) about plumber/);
    expect(stored?.phone).toBe('+12015550123');
    await demo.svc.idle();
    expect(demo.mail.messages).toHaveLength(0);
  });
});
