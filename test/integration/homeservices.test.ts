// The homeservices tools end to end: their run() with a real ToolContext whose config points at a lead
// service running in this test (over HTTP on loopback), outputs checked against the tools' own schemas.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '../../src/errors.js';
import { importPros } from '../../src/leads/import.js';
import { proIdFor } from '../../src/leads/ids.js';
import { registerKey, startLeadsForTest, type LeadsUnderTest } from '../support/leads-harness.js';
import { freePort } from '../support/free-port.js';
import { makeToolContext, type TestToolContext } from '../support/tool-context.js';
import searchTool from '../../tools/homeservices.search.js';
import requestTool from '../../tools/homeservices.request.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'leads');

let t: LeadsUnderTest;
const contexts: TestToolContext[] = [];

function ctxFor(env: Record<string, string>, taskId?: string): TestToolContext {
  const ctx = makeToolContext(env, taskId);
  contexts.push(ctx);
  return ctx;
}

beforeAll(async () => {
  t = await startLeadsForTest();
  await importPros(path.join(fixtures, 'nyc-pros.json'), { config: t.config, store: t.svc.store });
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await t?.close();
});

const leadsEnv = () => ({ LEADS_BASE_URL: t.url, LEADS_API_KEY: t.svc.internalApiKey });

async function failure(p: Promise<unknown>): Promise<ToolError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  return err as ToolError;
}

describe('homeservices.search', () => {
  it('returns the documented pros, nearest first, validated by its output schema', async () => {
    const ctx = ctxFor(leadsEnv());
    const input = searchTool.input.parse({ service: 'plumber', zip: '10001', number_of_results: 3 });
    const out = await searchTool.run(ctx, input);
    expect(searchTool.output.parse(out)).toEqual(out);
    expect(out.pros.map((p) => p.name)).toEqual(['Best Chelsea Plumbing', 'Chelsea Pipe Works', 'Unrated Chelsea Plumber']);
    expect(Object.keys(out.pros[0]!).sort()).toEqual(['address', 'description', 'distance_miles', 'id', 'name', 'phone', 'rating', 'review_count', 'website']);
    // Ranked by distance, and the distance is shown (issue 28).
    const miles = out.pros.map((p) => p.distance_miles);
    expect(miles.every((m) => typeof m === 'number' && m >= 0)).toBe(true);
    expect([...miles].sort((a, b) => a - b)).toEqual(miles);
    expect(out.pros[1]).toMatchObject({ phone: '+12125550141', rating: 4.2, review_count: 80, website: 'https://chelsea-a.test' });
  });

  it('defaults to 25 results and validates its input', async () => {
    expect(searchTool.input.parse({ service: 'plumber', zip: '10001' }).number_of_results).toBe(25);
    expect(searchTool.input.safeParse({ service: 'plumber', zip: '1000' }).success).toBe(false);
    expect(searchTool.input.safeParse({ service: 'plumber', zip: '100011' }).success).toBe(false);
    expect(searchTool.input.safeParse({ service: 'plumber', zip: '10001', number_of_results: 0 }).success).toBe(false);
    expect(searchTool.input.safeParse({ service: 'plumber', zip: '10001', number_of_results: 101 }).success).toBe(false);
  });

  it('precheck refuses an unknown service (listing the supported ones) before anyone pays', async () => {
    const ctx = ctxFor(leadsEnv());
    await expect(searchTool.precheck!(ctx, { service: 'astrology', zip: '10001', number_of_results: 25 })).rejects.toMatchObject({
      status: 400,
      field: 'service',
      message: expect.stringContaining('plumber, electrician, hvac'),
    });
  });

  it('works with a key from registration, not just the operator key', async () => {
    const key = await registerKey(t, 'tool-user@agent-utility.test');
    const ctx = ctxFor({ LEADS_BASE_URL: t.url, LEADS_API_KEY: key });
    const out = await searchTool.run(ctx, { service: 'electrician', zip: '10001', number_of_results: 25 });
    expect(out.pros.map((p) => p.name)).toEqual(['Chelsea Electric', 'Midtown Pipes and Wires']);
  });

  it('a lead-service outage is a transient failure', async () => {
    const closed = await freePort();
    const ctx = ctxFor({ LEADS_BASE_URL: `http://127.0.0.1:${closed}`, LEADS_API_KEY: 'lk_whatever_key' });
    const err = await failure(searchTool.run(ctx, { service: 'plumber', zip: '10001', number_of_results: 5 }));
    expect(err.kind).toBe('transient');
    expect(err.message).toMatch(/could not be reached/);
  });

  it('a refused key is a permanent failure', async () => {
    const ctx = ctxFor({ LEADS_BASE_URL: t.url, LEADS_API_KEY: 'lk_not_a_real_key_at_all' });
    const err = await failure(searchTool.run(ctx, { service: 'plumber', zip: '10001', number_of_results: 5 }));
    expect(err.kind).toBe('permanent');
  });
});

describe('homeservices.request', () => {
  it('sends the request once per task: a retried run returns the same request and notifies once', async () => {
    const ctx = ctxFor(leadsEnv(), 'task_tooltest_request_1');
    const input = requestTool.input.parse({
      pro_id: proIdFor('nyc-west-village'),
      requester: { name: 'Robin Park', phone: '(201) 555-0160', email: 'robin@agent-utility.test' },
      notes: 'Water heater makes a banging noise.',
    });
    const out = await requestTool.run(ctx, input);
    expect(requestTool.output.parse(out)).toEqual(out);
    expect(out).toMatchObject({
      request_id: expect.stringMatching(/^req_/),
      pro_id: proIdFor('nyc-west-village'),
      pro_name: 'West Village Plumbing',
      status: 'sent',
    });
    expect(out.message).toContain('West Village Plumbing');

    const again = await requestTool.run({ ...ctx, attempt: 2 }, input);
    expect(again.request_id).toBe(out.request_id);

    await t.mail.waitFor((m) => m.to.includes('wv@pros.test'), 'notification to the pro');
    await t.svc.idle();
    const stored = await t.svc.store.getRequest(out.request_id);
    expect(stored?.consent.text).toMatch(/AI agent on the requester's behalf/);
    expect(stored?.email).toBe('robin@agent-utility.test');
    const deliveries = await t.svc.store.listDeliveries(out.request_id);
    expect(deliveries).toHaveLength(1);
    expect(t.mail.messages.filter((m) => m.to.includes('wv@pros.test'))).toHaveLength(1);
  });

  it('an unknown pro_id fails clearly as an input error', async () => {
    const ctx = ctxFor(leadsEnv());
    const err = await failure(requestTool.run(ctx, { pro_id: 'pro_nosuchpro', requester: { name: 'A', phone: '2015550100' }, notes: 'Fix the sink' }));
    expect(err.kind).toBe('input');
    expect(err.message).toMatch(/pro_id: no professional "pro_nosuchpro"/);
  });

  it('precheck refuses an invalid phone before anyone pays', async () => {
    const ctx = ctxFor(leadsEnv());
    await expect(requestTool.precheck!(ctx, { pro_id: proIdFor('nyc-brooklyn'), requester: { name: 'A', phone: '555' }, notes: 'x' })).rejects.toMatchObject({
      status: 400,
      field: 'requester.phone',
    });
  });

  it('a lead-service outage is a transient failure', async () => {
    const closed = await freePort();
    const ctx = ctxFor({ LEADS_BASE_URL: `http://127.0.0.1:${closed}`, LEADS_API_KEY: 'lk_whatever_key' });
    const err = await failure(requestTool.run(ctx, { pro_id: proIdFor('nyc-brooklyn'), requester: { name: 'A', phone: '2015550100' }, notes: 'Fix the sink' }));
    expect(err.kind).toBe('transient');
  });

  it('declares itself as a side-effecting, non-idempotent, open-world tool', () => {
    expect(requestTool.sideEffects).toBe(true);
    expect(requestTool.annotations).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true });
    expect(searchTool.annotations.readOnlyHint).toBe(true);
  });
});
