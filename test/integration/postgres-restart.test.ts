// PostgreSQL stopped and restarted (pg_ctl, on a cluster of the test's own: the shared server is never
// touched), and PostgreSQL at max_connections (another client holds every connection). Tasks run when the
// fault starts and finish during it. Asserted: while it lasts every answer is a task or 503
// STORE_UNAVAILABLE with Retry-After (never a 500 or a hang), and afterwards every task completes having
// run once and been charged once, with no restart of the service.
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { api, startTestService, type TestService } from '../support/service.js';
import { gatedTool, GATED_PRICE_MICROS } from '../support/gated-tool.js';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../support/throwaway-postgres.js';
import { startCutProxy, type CutProxy } from '../support/tcp-cut-proxy.js';

const MAX_CONNECTIONS = 12;
const SCHEMA = 'au_fault';
const gated = gatedTool();
let cluster: ThrowawayPostgres | undefined;
let unavailable = '';
let proxy: CutProxy;
let svc: TestService;

beforeAll(async () => {
  const started = await startThrowawayPostgres({ max_connections: String(MAX_CONNECTIONS), superuser_reserved_connections: '0' });
  if ('error' in started) unavailable = started.error;
  else cluster = started;
}, 60_000);
afterAll(() => cluster?.destroy());

beforeEach(async (ctx) => {
  if (!cluster) return ctx.skip(unavailable);
  gated.runs.clear();
  gated.close();
  const target = new URL(cluster.url);
  proxy = await startCutProxy({ host: target.hostname, port: Number(target.port) });
  const viaProxy = new URL(cluster.url);
  viaProxy.port = String(proxy.port);
  await admin((c) => c.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`));
  svc = await startTestService(
    {
      DATABASE_URL: viaProxy.toString(),
      DATABASE_SCHEMA: SCHEMA,
      DATABASE_POOL_SIZE: '4',
      LEASE_MS: '20000',
      WORKER_CONCURRENCY: '16',
      RATE_LIMIT_PER_IP: '0',
      RATE_LIMIT_PER_KEY: '0',
    },
    { tools: [gated.tool] },
  );
});
afterEach(async () => {
  gated.open();
  await svc?.close();
  await proxy?.close();
});

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: cluster!.url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

async function createRunning(key: string, count: number) {
  const started = gated.started(count);
  const tasks: { id: string; token: string }[] = [];
  for (let n = 0; n < count; n++) {
    const r = await api(svc.url, 'POST', '/v1/tools/test.gated/tasks', { token: key, body: { n } });
    expect(r.status).toBe(202);
    tasks.push({ id: r.body.task_id, token: r.body.poll_token });
  }
  await started;
  return tasks;
}

function outageStarts(): Promise<void> {
  return new Promise((resolve) => {
    const off = svc.rt.store.faults!.onChange((c) => c.kind === 'down' && (off(), resolve()));
  });
}

function expectStoreUnavailable(r: Awaited<ReturnType<typeof api>>, words: RegExp) {
  expect(r.status).toBe(503);
  expect(r.body).toMatchObject({ code: 'STORE_UNAVAILABLE', retry: true });
  expect(r.body.error).toMatch(words);
  expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
}

/** Keeps asking until the service answers a task; every answer on the way must be a clear 503. */
async function createWhenBack(key: string, n: number) {
  for (;;) {
    const r = await api(svc.url, 'POST', '/v1/tools/test.gated/tasks', { token: key, body: { n } });
    if (r.status === 202) return { id: r.body.task_id as string, token: r.body.poll_token as string };
    expect(r.status).toBe(503);
    expect(r.body.code).toBe('STORE_UNAVAILABLE');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function expectSettledOnce(tasks: { id: string; token: string }[], keyId: string) {
  for (const t of tasks) {
    let polled = await api(svc.url, 'GET', `/v1/tasks/${t.id}?wait=20`, { token: t.token });
    while (polled.status === 503 || polled.body.status === 'running' || polled.body.status === 'pending') {
      polled = await api(svc.url, 'GET', `/v1/tasks/${t.id}?wait=20`, { token: t.token });
    }
    expect(polled.body.status).toBe('complete');
    expect(gated.runs.get(t.id)).toBe(1);
  }
  const ledger = await admin((c) =>
    c.query(`SELECT reason, count(*)::int AS n FROM ${SCHEMA}.credit_ledger WHERE key_id = $1 AND reason <> 'grant' GROUP BY reason`, [keyId]),
  );
  expect(Object.fromEntries(ledger.rows.map((r: { reason: string; n: number }) => [r.reason, r.n]))).toEqual({ charge: tasks.length });
  expect((await svc.rt.store.findKey(keyId))!.balanceMicros).toBe(1_000_000 - tasks.length * GATED_PRICE_MICROS);
}

describe('PostgreSQL restarts', () => {
  it('answers 503 while PostgreSQL is stopped (pg_ctl stop), and carries on after it starts and after a pg_ctl restart', async () => {
    const { key, id: keyId } = await svc.createKey(1);
    const tasks = await createRunning(key, 8);
    const down = outageStarts();
    cluster!.stop();
    gated.open();
    await down;
    expectStoreUnavailable(await api(svc.url, 'POST', '/v1/tools/test.gated/tasks', { token: key, body: { n: 100 } }), /database is unreachable/);
    expect((await api(svc.url, 'GET', '/healthz')).status).toBe(503);
    cluster!.start();
    tasks.push(await createWhenBack(key, 101));
    await expectSettledOnce(tasks, keyId);

    gated.close();
    const more = await createRunning(key, 12);
    cluster!.restart();
    gated.open();
    more.push(await createWhenBack(key, 102));
    await expectSettledOnce([...tasks, ...more], keyId);
  });
});

describe('PostgreSQL at max_connections', () => {
  it('answers 503 while another client holds every connection, and carries on once they are released', async () => {
    const { key, id: keyId } = await svc.createKey(1);
    const tasks = await createRunning(key, 6);
    // Drop the service's connections and wait until the server has let them all go, so the hog below
    // gets every slot (the service cannot take one back while the relay is cut).
    await proxy.cut();
    const hog: pg.Client[] = [];
    try {
      for (;;) {
        const others = await admin((c) =>
          c.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"),
        );
        if (others.rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      for (;;) {
        const c = new pg.Client({ connectionString: cluster!.url });
        c.on('error', () => undefined);
        try {
          await c.connect();
          hog.push(c);
        } catch (err) {
          expect((err as { code?: string }).code).toBe('53300');
          break;
        }
      }
      expect(hog.length).toBe(MAX_CONNECTIONS);
      // The outage began when the relay was cut; what the service meets now is the full server.
      await proxy.restore();
      gated.open();
      expectStoreUnavailable(await api(svc.url, 'POST', '/v1/tools/test.gated/tasks', { token: key, body: { n: 100 } }), /no free connections/);
      const metrics = await api(svc.url, 'GET', '/metrics');
      expect(metrics.body).toMatch(/^agent_utility_store_errors_total\{reason="too_many_connections"\} [1-9]\d*$/m);
    } finally {
      await Promise.all(hog.map((c) => c.end().catch(() => undefined)));
    }
    tasks.push(await createWhenBack(key, 101));
    await expectSettledOnce(tasks, keyId);
  });
});
