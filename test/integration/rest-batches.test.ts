// REST batches against the real service on SQLite and PostgreSQL: every input validated before any
// charge, identical inputs run and charged once, failures not caused by the input refunded, cancel
// refunds what has not run, results in input order as JSONL and CSV.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestService, type TestService } from '../support/service.js';
import { serviceBackends as backends } from '../support/store-factories.js';
import { testTools } from '../support/test-tools.js';

async function raw(base: string, path: string, key: string, contentType: string, body: string) {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': contentType }, body });
  return { status: res.status, body: (await res.json()) as any };
}

describe.each(backends)('REST batches ($name)', ({ env }) => {
  let svc: TestService;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const b = await env();
    drop = b.drop;
    svc = await startTestService(b.env, { tools: testTools });
  });
  afterAll(async () => {
    await svc?.close();
    await drop?.();
  });

  async function waitDone(id: string, token: string) {
    for (let i = 0; i < 100; i++) {
      const r = await api(svc.url, 'GET', `/v1/batches/${id}?wait=2`, { token });
      if (r.body.status !== 'running' && r.body.status !== 'pending') return r.body;
    }
    throw new Error('the batch never finished');
  }

  it('a CSV with bad rows answers 400 listing them and charges nothing', async () => {
    const { key, id } = await svc.createKey(1);
    // Row 2 leaves value empty: it is left out, so the required field is missing.
    const r = await raw(svc.url, '/v1/tools/test.echo/batches', key, 'text/csv', 'value,extra.note\nok,a\n,b\nfine,\n');
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('BATCH_INVALID');
    expect(r.body.errors).toEqual([{ row: 2, field: 'value', problem: expect.stringContaining('value') }]);
    expect((await svc.rt.store.findKey(id))!.balanceMicros).toBe(1_000_000);
  });

  it("charges identical inputs once and refunds failures that are not the input's fault", async () => {
    const { key, id } = await svc.createKey(1);
    const inputs = [{ kind: 'permanent' }, { kind: 'input' }, { kind: 'permanent' }, { kind: 'input' }];
    const created = await api(svc.url, 'POST', '/v1/tools/test.fail/batches', { token: key, body: { inputs } });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({ total: 4, unique: 2, price_usd: '0.02', status: 'pending' });
    const done = await waitDone(created.body.batch_id, created.body.poll_token);
    expect(done.counts).toMatchObject({ failed: 4, complete: 0 });
    // Charged 0.02 (two distinct inputs); the permanent failure is refunded, the input's own fault is not.
    expect((await svc.rt.store.findKey(id))!.balanceMicros).toBe(990_000);
  });

  it('returns results in input order as JSONL and CSV, paged by cursor', async () => {
    const { key } = await svc.createKey(1);
    const ndjson = ['c', 'a', 'b', 'a', 'd'].map((v) => JSON.stringify({ value: v })).join('\n');
    const created = await raw(svc.url, '/v1/tools/test.echo/batches', key, 'application/x-ndjson', ndjson);
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({ total: 5, unique: 4 });
    const done = await waitDone(created.body.batch_id, created.body.poll_token);
    expect(done.status).toBe('complete');
    const page1 = await fetch(`${svc.url}${done.results_url}&limit=3`);
    const lines = (await page1.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.result.value)).toEqual(['c', 'a', 'b']);
    const next = page1.headers.get('x-next-cursor');
    expect(next).toBe('3');
    const page2 = await fetch(`${svc.url}${done.results_url}&limit=3&cursor=${next}`);
    expect(
      (await page2.text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).result.value),
    ).toEqual(['a', 'd']);
    expect(page2.headers.get('x-next-cursor')).toBeNull();
    const csv = await (await fetch(`${svc.url}${done.results_urls.csv}`)).text();
    const rows = csv.trim().split('\r\n');
    expect(rows[0]).toBe('index,task_id,status,error,result');
    expect(rows.slice(1).map((r) => r.split(',')[0])).toEqual(['0', '1', '2', '3', '4']);
    expect(rows[1]).toContain('"{""value"":""c""}"');
  });

  it('gives a read-only signed results link: no poll token in it, it reads the results and cannot cancel', async () => {
    const { key } = await svc.createKey(1);
    const created = await api(svc.url, 'POST', '/v1/tools/test.echo/batches', { token: key, body: { inputs: [{ value: 'x' }, { value: 'y' }] } });
    const done = await waitDone(created.body.batch_id, created.body.poll_token);
    const link = new URL(done.results_url, svc.url);
    expect(link.searchParams.get('token')).toBeNull();
    expect(done.results_url).not.toContain('pt_');
    expect(link.searchParams.get('sig')).toMatch(/^[\w-]{20,}$/);
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect((await page.text()).trim().split('\n')).toHaveLength(2);
    // The link is no credential anywhere else, and a changed expiry or another batch id breaks it.
    const cancel = await fetch(`${svc.url}/v1/batches/${created.body.batch_id}/cancel?${link.searchParams}`, { method: 'POST' });
    expect(cancel.status).toBe(401);
    const stretched = new URL(link);
    stretched.searchParams.set('expires', String(Number(link.searchParams.get('expires')) + 3600));
    expect((await fetch(stretched)).status).toBe(403);
    const other = await api(svc.url, 'POST', '/v1/tools/test.echo/batches', { token: key, body: { inputs: [{ value: 'z' }] } });
    const elsewhere = new URL(`/v1/batches/${other.body.batch_id}/results?${link.searchParams}`, svc.url);
    expect((await fetch(elsewhere)).status).toBe(403);
  });

  it('cancel stops what has not run and refunds it', async () => {
    const { key, id } = await svc.createKey(1);
    // test.sleep runs two at a time, so most of these are still pending when the cancel arrives.
    const inputs = Array.from({ length: 20 }, (_, i) => ({ ms: 1000, key: `cancel-${i}` }));
    const created = await api(svc.url, 'POST', '/v1/tools/test.sleep/batches', { token: key, body: { inputs } });
    expect(created.status).toBe(202);
    expect((await svc.rt.store.findKey(id))!.balanceMicros).toBe(800_000);
    const cancel = await api(svc.url, 'POST', `/v1/batches/${created.body.batch_id}/cancel`, { token: created.body.poll_token });
    expect(cancel.status).toBe(200);
    expect(cancel.body.cancelled_now).toBeGreaterThan(0);
    const done = await waitDone(created.body.batch_id, created.body.poll_token);
    const ran = done.counts.complete;
    // Whatever completed was paid for; everything cancelled came back.
    expect(done.counts.complete + done.counts.cancelled).toBe(20);
    expect((await svc.rt.store.findKey(id))!.balanceMicros).toBe(1_000_000 - ran * 10_000);
  });

  it('without an API key answers 402 naming the key, after validating', async () => {
    const r = await api(svc.url, 'POST', '/v1/tools/test.echo/batches', { body: { inputs: [{ value: 'x' }] } });
    expect(r.status).toBe(402);
    expect(r.body.code).toBe('BATCH_NEEDS_API_KEY');
  });

  it('refuses more inputs than the limit, and another key cannot read the batch', async () => {
    const { key } = await svc.createKey(1);
    const created = await api(svc.url, 'POST', '/v1/tools/test.echo/batches', { token: key, body: { inputs: [{ value: 'x' }] } });
    const other = await svc.createKey(1);
    const r = await api(svc.url, 'GET', `/v1/batches/${created.body.batch_id}`, { token: other.key });
    expect(r.status).toBe(403);
    const many = await api(svc.url, 'POST', '/v1/tools/test.echo/batches', {
      token: key,
      body: { inputs: Array.from({ length: 10_001 }, () => ({ value: 'x' })) },
    });
    expect(many.status).toBe(400);
    expect(many.body.field).toBe('inputs');
  });
});
