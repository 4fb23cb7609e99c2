// PostgreSQL lost under load: the service points at the test PostgreSQL through a relay the test can cut
// (server unreachable: connections dropped, new ones refused) and whose backends it can terminate
// (pg_terminate_backend, only this service's own: found by the relay's ports). Tasks are running when the
// fault starts and finish during it. Asserted: every front-door answer during the outage is 503
// STORE_UNAVAILABLE with Retry-After (never a 500, never a hang), the outage is reported once, and after
// it each task completes having run once and been charged once, creation works again, and the LISTEN
// connection is back.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gatedTool, GATED_PRICE_MICROS } from '../support/gated-tool.js';
import { api, startTestService, type TestService } from '../support/service.js';
import { createTestSchema, TEST_DATABASE_URL, type TestSchema } from '../support/postgres.js';
import { startCutProxy, type CutProxy } from '../support/tcp-cut-proxy.js';

const gated = gatedTool();
const runs = gated.runs;

let schema: TestSchema;
let proxy: CutProxy;
let svc: TestService;

beforeEach(async () => {
  runs.clear();
  gated.close();
  schema = await createTestSchema();
  const target = new URL(TEST_DATABASE_URL);
  proxy = await startCutProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const viaProxy = new URL(TEST_DATABASE_URL);
  viaProxy.hostname = '127.0.0.1';
  viaProxy.port = String(proxy.port);
  svc = await startTestService(
    {
      DATABASE_URL: viaProxy.toString(),
      DATABASE_SCHEMA: schema.schema,
      // Longer than the outages here: a finished task's outcome waits for the store under its lease.
      LEASE_MS: '15000',
      WORKER_CONCURRENCY: '32',
      RATE_LIMIT_PER_IP: '0',
      RATE_LIMIT_PER_KEY: '0',
    },
    { tools: [gated.tool] },
  );
});

afterEach(async () => {
  gated.open();
  await proxy.restore().catch(() => undefined);
  await svc?.close();
  await proxy?.close();
  await schema?.drop();
});

async function createRunning(key: string, count: number): Promise<{ id: string; token: string }[]> {
  const allStarted = gated.started(count);
  const tasks = [];
  for (let n = 0; n < count; n++) {
    const r = await api(svc.url, 'POST', '/v1/tools/test.gated/tasks', { token: key, body: { n } });
    expect(r.status).toBe(202);
    tasks.push({ id: r.body.task_id as string, token: r.body.poll_token as string });
  }
  await allStarted;
  return tasks;
}

/** Resolves at the next outage the store reports (its start, or its end). */
function nextChange(kind: 'down' | 'up'): Promise<void> {
  return new Promise((resolve) => {
    const off = svc.rt.store.faults!.onChange((c) => {
      if (c.kind !== kind) return;
      off();
      resolve();
    });
  });
}

/** Each task complete, run once; the key charged once per task and never refunded. */
async function expectSettledOnce(tasks: { id: string; token: string }[], keyId: string, extraCharges = 0) {
  for (const t of tasks) {
    let polled = await api(svc.url, 'GET', `/v1/tasks/${t.id}?wait=20`, { token: t.token });
    while (polled.status === 503 || polled.body.status === 'running') polled = await api(svc.url, 'GET', `/v1/tasks/${t.id}?wait=20`, { token: t.token });
    expect(polled.status).toBe(200);
    expect(polled.body.status).toBe('complete');
    expect(runs.get(t.id)).toBe(1);
  }
  const ledger = await schema.query<{ reason: string; n: number }>('SELECT reason, count(*)::int AS n FROM credit_ledger WHERE key_id = $1 GROUP BY reason', [
    keyId,
  ]);
  const byReason = Object.fromEntries(ledger.map((r) => [r.reason, r.n]));
  expect(byReason.charge).toBe(tasks.length + extraCharges);
  expect(byReason.refund).toBeUndefined();
  const [key] = await schema.query<{ balance_micros: number }>('SELECT balance_micros FROM api_keys WHERE id = $1', [keyId]);
  expect(Number(key!.balance_micros)).toBe(1_000_000 - (tasks.length + extraCharges) * GATED_PRICE_MICROS);
}

/** Waits until this service's LISTEN connection is open through the relay again. */
async function listenerBack(): Promise<void> {
  for (;;) {
    const rows = await schema.query("SELECT 1 FROM pg_stat_activity WHERE client_port = ANY($1) AND query ILIKE 'LISTEN %'", [proxy.upstreamPorts()]);
    if (rows.length > 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('PostgreSQL outage', () => {
  it('answers 503 STORE_UNAVAILABLE with Retry-After while the server is unreachable, and recovers by itself', async () => {
    const { key, id: keyId } = await svc.createKey(1);
    const tasks = await createRunning(key, 10);
    const down = nextChange('down');
    let downs = 0;
    svc.rt.store.faults!.onChange((c) => void (c.kind === 'down' && downs++));

    await proxy.cut();
    // The tools finish during the outage: their outcomes wait for the store.
    gated.open();
    await down;

    for (let i = 0; i < 5; i++) {
      const created = await api(svc.url, 'POST', '/v1/tools/test.gated/tasks', { token: key, body: { n: 100 + i } });
      expect(created.status).toBe(503);
      expect(created.body).toMatchObject({ code: 'STORE_UNAVAILABLE', retry: true });
      expect(created.body.error).toMatch(/database is unreachable/);
      expect(Number(created.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    const polled = await api(svc.url, 'GET', `/v1/tasks/${tasks[0]!.id}`, { token: tasks[0]!.token });
    expect(polled.status).toBe(503);
    expect(polled.body.code).toBe('STORE_UNAVAILABLE');
    const health = await api(svc.url, 'GET', '/healthz');
    expect(health.status).toBe(503);
    expect(health.body.status).toBe('unavailable');
    expect(health.body.problems[0]).toMatchObject({ part: 'store' });
    expect(health.body.problems[0].problem).toMatch(/unreachable/);
    const metrics = await api(svc.url, 'GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.body).toMatch(/^agent_utility_store_up 0$/m);
    expect(Number(/^agent_utility_store_errors_total\{reason="unreachable"\} (\d+)$/m.exec(metrics.body)?.[1])).toBeGreaterThan(0);

    const up = nextChange('up');
    await proxy.restore();
    await up;
    // One outage, reported once, however many requests and polls met it.
    expect(downs).toBe(1);
    await expectSettledOnce(tasks, keyId);
    const after = await api(svc.url, 'POST', '/v1/tools/test.gated/tasks', { token: key, body: { n: 200 } });
    expect(after.status).toBe(202);
    await listenerBack();
    expect((await api(svc.url, 'GET', '/healthz')).body.status).toBe('ok');
    await expectSettledOnce([...tasks, { id: after.body.task_id, token: after.body.poll_token }], keyId);
  });

  it('carries on when every one of its backends is terminated (pg_terminate_backend) while tasks run', async () => {
    const { key, id: keyId } = await svc.createKey(1);
    const tasks = await createRunning(key, 10);
    await listenerBack();
    const ours = proxy.upstreamPorts();
    const terminated = await schema.query<{ ok: boolean }>(
      'SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE client_port = ANY($1) AND pid <> pg_backend_pid()',
      [ours],
    );
    expect(terminated.length).toBeGreaterThan(0);
    expect(terminated.every((r) => r.ok)).toBe(true);
    gated.open();
    // Answers meanwhile are a task or a clear 503, never a 500.
    const meanwhile = await api(svc.url, 'POST', '/v1/tools/test.gated/tasks', { token: key, body: { n: 300 } });
    expect([202, 503]).toContain(meanwhile.status);
    const extra = meanwhile.status === 202 ? [{ id: meanwhile.body.task_id as string, token: meanwhile.body.poll_token as string }] : [];
    await expectSettledOnce([...tasks, ...extra], keyId);
    await listenerBack();
  });
});
