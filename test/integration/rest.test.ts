// The REST front door end to end over real HTTP: creation, polling, waiting, every error path,
// idempotency, credits and rate limits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestService, type TestService } from '../support/service.js';
import { admitCalls, admitTool, testTools } from '../support/test-tools.js';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_KEY: '0', BODY_LIMIT_BYTES: '4096' }, { tools: [...testTools, admitTool] });
});
afterAll(async () => svc?.close());

describe('task creation and polling', () => {
  it('creates a task (202) and polls it to complete with the poll token', async () => {
    const { key } = await svc.createKey(1);
    const created = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, body: { value: 'hello' } });
    expect(created.status).toBe(202);
    expect(created.body.task_id).toMatch(/^task_[0-9a-z]+$/);
    expect(created.body.poll_token).toMatch(/^pt_[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(created.body.status).toBe('pending');
    expect(created.body.poll_url).toBe(`/v1/tasks/${created.body.task_id}`);
    expect(created.headers.get('location')).toBe(created.body.poll_url);

    const polled = await api(svc.url, 'GET', `${created.body.poll_url}?wait=10`, { token: created.body.poll_token });
    expect(polled.status).toBe(200);
    expect(polled.body).toMatchObject({ task_id: created.body.task_id, status: 'complete', tool: 'test.echo', result: { value: 'hello' }, error: null });
  });

  it('lets the creating API key read the task, and no other key', async () => {
    const a = await svc.createKey(1);
    const b = await svc.createKey(1);
    const created = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: a.key, body: { value: 'x' } });
    expect((await api(svc.url, 'GET', created.body.poll_url, { token: a.key })).status).toBe(200);
    const other = await api(svc.url, 'GET', created.body.poll_url, { token: b.key });
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('NOT_YOUR_TASK');
  });

  it('answers ?wait as soon as the task settles, and reports failures with a sentence', async () => {
    const { key } = await svc.createKey(1);
    const created = await api(svc.url, 'POST', '/v1/tools/test.fail/tasks', { token: key, body: { kind: 'permanent' } });
    const polled = await api(svc.url, 'GET', `${created.body.poll_url}?wait=20`, { token: created.body.poll_token });
    expect(polled.body.status).toBe('failed');
    expect(polled.body.error).toBe('failed as asked (permanent)');
    expect(polled.body.result).toBeNull();
  });

  it('never leaks an internal error to the caller', async () => {
    const { key } = await svc.createKey(1);
    const created = await api(svc.url, 'POST', '/v1/tools/test.fail/tasks', { token: key, body: { kind: 'bug' } });
    const polled = await api(svc.url, 'GET', `${created.body.poll_url}?wait=20`, { token: created.body.poll_token });
    expect(polled.body.status).toBe('failed');
    expect(polled.body.error).not.toContain('secret internal detail');
  });

  it('cancels a pending task through the API', async () => {
    const { key } = await svc.createKey(1);
    const created = await api(svc.url, 'POST', '/v1/tools/test.sleep/tasks', { token: key, body: { ms: 1000 } });
    const cancelled = await api(svc.url, 'POST', `/v1/tasks/${created.body.task_id}/cancel`, { token: created.body.poll_token });
    // 200 when it was still pending (cancelled at once), 202 when a worker had already started it.
    expect(cancelled.status).toBe(cancelled.body.status === 'running' ? 202 : 200);
    const final = await api(svc.url, 'GET', `${created.body.poll_url}?wait=10`, { token: created.body.poll_token });
    expect(final.body.status).toBe('cancelled');
  });
});

describe('errors', () => {
  it('400 names the field and says what is wrong', async () => {
    const { key } = await svc.createKey(1);
    const r = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, body: { value: '' } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'INVALID_INPUT', field: 'value', retry: false });
    expect(r.body.error).toMatch(/value: must not be empty/);
    const missing = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.field).toBe('value');
  });

  it('400 for malformed JSON, 415 for non-JSON, 413 for an oversized body', async () => {
    const { key } = await svc.createKey(1);
    const bad = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, rawBody: '{"value":', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('INVALID_JSON');
    const text = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, rawBody: 'value=x', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
    expect(text.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const big = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, body: { value: 'x'.repeat(10_000) } });
    expect(big.status).toBe(413);
    expect(big.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('404 for an unknown tool, task or route', async () => {
    const { key } = await svc.createKey(1);
    const tool = await api(svc.url, 'POST', '/v1/tools/nope.tool/tasks', { token: key, body: {} });
    expect(tool.status).toBe(404);
    expect(tool.body.code).toBe('UNKNOWN_TOOL');
    expect((await api(svc.url, 'GET', '/v1/tools/nope.tool')).status).toBe(404);
    const task = await api(svc.url, 'GET', '/v1/tasks/task_doesnotexist', { token: key });
    expect(task.status).toBe(404);
    expect((await api(svc.url, 'GET', '/v1/nothing')).status).toBe(404);
  });

  it('402 without credentials explains both ways to pay; invalid input is 400 first', async () => {
    const r = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { body: { value: 'x' } });
    expect(r.status).toBe(402);
    expect(r.body.code).toBe('PAYMENT_REQUIRED');
    expect(r.body.ways_to_pay.api_key).toBeTruthy();
    expect(r.body.error).toMatch(/API key/);
    expect((await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { body: { value: '' } })).status).toBe(400);
  });

  it('asks for payment before any check that reaches out (admit: DNS), and runs it before charging', async () => {
    const before = admitCalls.count;
    const unpaid = await api(svc.url, 'POST', '/v1/tools/test.admit/tasks', { body: { target: 'x' } });
    expect(unpaid.status).toBe(402);
    expect(admitCalls.count).toBe(before);
    const { key } = await svc.createKey(1);
    const paid = await api(svc.url, 'POST', '/v1/tools/test.admit/tasks', { token: key, body: { target: 'x' } });
    expect(paid.status).toBe(403);
    expect(paid.body).toMatchObject({ code: 'BLOCKED_TARGET', field: 'target' });
    expect(admitCalls.count).toBe(before + 1);
  });

  it('401 for unknown or revoked keys and malformed tokens', async () => {
    const unknown = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: `sk_live_${'a'.repeat(43)}`, body: { value: 'x' } });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('www-authenticate')).toMatch(/Bearer/);
    const k = await svc.createKey(1);
    await svc.rt.store.revokeKey(k.id, Date.now());
    const revoked = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: k.key, body: { value: 'x' } });
    expect(revoked.status).toBe(401);
    expect(revoked.body.code).toBe('API_KEY_REVOKED');
    expect((await api(svc.url, 'GET', '/v1/tasks/task_x', { token: 'pt_not.a.jwt' })).status).toBe(401);
    expect((await api(svc.url, 'GET', '/v1/tasks/task_x')).status).toBe(401);
  });

  it('a key revoked elsewhere stops creating tasks at once, even while its row is cached', async () => {
    const k = await svc.createKey(1);
    const first = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: k.key, body: { value: 'x' } });
    expect(first.status).toBe(202);
    // Revoked straight in the store, as another node would: this node's key cache is not told.
    await svc.rt.store.revokeKey(k.id, Date.now());
    const after = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: k.key, body: { value: 'y' } });
    expect(after.status).toBe(401);
    expect(after.body).toMatchObject({ code: 'API_KEY_REVOKED', error: 'This API key was revoked.' });
    const batch = await api(svc.url, 'POST', '/v1/tools/test.echo/batches', { token: k.key, body: { inputs: [{ value: 'z' }] } });
    expect(batch.status).toBe(401);
    expect(batch.body.code).toBe('API_KEY_REVOKED');
  });

  it('403 for a poll token of another task, 401 for a tampered one', async () => {
    const { key } = await svc.createKey(1);
    const a = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, body: { value: 'a' } });
    const b = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, body: { value: 'b' } });
    const cross = await api(svc.url, 'GET', a.body.poll_url, { token: b.body.poll_token });
    expect(cross.status).toBe(403);
    const [head, payload, sig] = (a.body.poll_token as string).slice(3).split('.');
    const tampered = `pt_${head}.${payload}.${sig!.slice(0, -2)}${sig!.endsWith('AA') ? 'BB' : 'AA'}`;
    const t = await api(svc.url, 'GET', a.body.poll_url, { token: tampered });
    expect(t.status).toBe(401);
    expect(t.body.code).toBe('INVALID_TOKEN');
  });

  it('400 for an out-of-range wait', async () => {
    const { key } = await svc.createKey(1);
    const a = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, body: { value: 'a' } });
    const r = await api(svc.url, 'GET', `${a.body.poll_url}?wait=99`, { token: a.body.poll_token });
    expect(r.status).toBe(400);
    expect(r.body.field).toBe('wait');
  });
});

describe('credits and idempotency', () => {
  it('charges the price at creation and refunds a failure that is not the input’s fault', async () => {
    const { key, id } = await svc.createKey(0.05);
    const ok = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, body: { value: 'x' } });
    await api(svc.url, 'GET', `${ok.body.poll_url}?wait=10`, { token: key });
    expect((await svc.rt.store.findKey(id))!.balanceMicros).toBe(40_000);
    const failed = await api(svc.url, 'POST', '/v1/tools/test.fail/tasks', { token: key, body: { kind: 'permanent' } });
    await api(svc.url, 'GET', `${failed.body.poll_url}?wait=10`, { token: key });
    expect((await svc.rt.store.findKey(id))!.balanceMicros).toBe(40_000);
    const inputFault = await api(svc.url, 'POST', '/v1/tools/test.fail/tasks', { token: key, body: { kind: 'input' } });
    await api(svc.url, 'GET', `${inputFault.body.poll_url}?wait=10`, { token: key });
    expect((await svc.rt.store.findKey(id))!.balanceMicros).toBe(30_000);
  });

  it('402 INSUFFICIENT_CREDITS when the balance is short', async () => {
    const { key } = await svc.createKey(0.005);
    const r = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, body: { value: 'x' } });
    expect(r.status).toBe(402);
    expect(r.body.code).toBe('INSUFFICIENT_CREDITS');
  });

  it('200 concurrent creations with credit for exactly 100 → exactly 100 accepted, balance 0', async () => {
    const { key, id } = await svc.createKey(1); // 100 × 0.01
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, body: { value: `v${i}` } })),
    );
    const accepted = results.filter((r) => r.status === 202);
    const refused = results.filter((r) => r.status === 402);
    expect(accepted.length).toBe(100);
    expect(refused.length).toBe(100);
    expect(new Set(accepted.map((r) => r.body.task_id)).size).toBe(100);
    expect((await svc.rt.store.findKey(id))!.balanceMicros).toBe(0);
  });

  it('Idempotency-Key: same key and body → same task, charged once; different body → 422', async () => {
    const { key, id } = await svc.createKey(1);
    const headers = { 'idempotency-key': 'order-42' };
    const first = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, body: { value: 'same' }, headers });
    const again = await Promise.all([1, 2, 3].map(() => api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, body: { value: 'same' }, headers })));
    for (const r of again) {
      expect(r.status).toBe(202);
      expect(r.body.task_id).toBe(first.body.task_id);
      expect(r.headers.get('idempotent-replayed')).toBe('true');
    }
    expect((await svc.rt.store.findKey(id))!.balanceMicros).toBe(990_000);
    const different = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, body: { value: 'other' }, headers });
    expect(different.status).toBe(422);
    expect(different.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it("Idempotency-Key is scoped to the API key: another key's replay gets its own task, never the first caller's", async () => {
    const a = await svc.createKey(1);
    const b = await svc.createKey(1);
    const headers = { 'idempotency-key': 'shared-key-1' };
    const first = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: a.key, body: { value: 'mine' }, headers });
    const other = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: b.key, body: { value: 'mine' }, headers });
    expect(first.status).toBe(202);
    expect(other.status).toBe(202);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(other.body.task_id).not.toBe(first.body.task_id);
    // B's poll token is for B's task only.
    expect((await api(svc.url, 'GET', first.body.poll_url, { token: other.body.poll_token })).status).toBe(403);
    expect((await svc.rt.store.findKey(b.id))!.balanceMicros).toBe(990_000);
  });
});

describe("a key's own tasks and usage", () => {
  it("lists the key's tasks with filters and cursor pages, and reports usage by tool and by day", async () => {
    const { key } = await svc.createKey(1);
    const other = await svc.createKey(1);
    await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: other.key, body: { value: 'not mine' } });
    const made = [];
    for (const body of [{ value: 'a' }, { value: 'b' }, { value: 'c' }])
      made.push((await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, body })).body);
    const failed = (await api(svc.url, 'POST', '/v1/tools/test.fail/tasks', { token: key, body: { kind: 'permanent' } })).body;
    const bad = (await api(svc.url, 'POST', '/v1/tools/test.fail/tasks', { token: key, body: { kind: 'input' } })).body;
    for (const t of [...made, failed, bad]) await api(svc.url, 'GET', `${t.poll_url}?wait=20`, { token: key });

    const seen: string[] = [];
    let page = await api(svc.url, 'GET', '/v1/tasks?limit=2', { token: key });
    for (;;) {
      expect(page.status).toBe(200);
      seen.push(...page.body.tasks.map((t: { task_id: string }) => t.task_id));
      if (!page.body.next_cursor) break;
      page = await api(svc.url, 'GET', `/v1/tasks?limit=2&cursor=${encodeURIComponent(page.body.next_cursor)}`, { token: key });
    }
    expect(seen.sort()).toEqual([...made, failed, bad].map((t) => t.task_id).sort());
    const failures = await api(svc.url, 'GET', '/v1/tasks?status=failed&tool=test.fail', { token: key });
    expect(failures.body.tasks.map((t: { task_id: string }) => t.task_id).sort()).toEqual([failed.task_id, bad.task_id].sort());
    expect((await api(svc.url, 'GET', `/v1/tasks?since=${new Date(Date.now() + 60_000).toISOString()}`, { token: key })).body.count).toBe(0);
    const wrong = await api(svc.url, 'GET', '/v1/tasks?status=done', { token: key });
    expect(wrong.status).toBe(400);
    expect(wrong.body.field).toBe('status');
    expect((await api(svc.url, 'GET', '/v1/tasks')).status).toBe(401);

    const byTool = await api(svc.url, 'GET', '/v1/usage', { token: key });
    expect(byTool.status).toBe(200);
    expect(byTool.body.rows).toEqual([
      { tool: 'test.echo', tasks: 3, failed: 0, cancelled: 0, spent_usd: '0.03', refunded_usd: '0', net_usd: '0.03' },
      { tool: 'test.fail', tasks: 2, failed: 2, cancelled: 0, spent_usd: '0.02', refunded_usd: '0.01', net_usd: '0.01' },
    ]);
    expect(byTool.body.total).toMatchObject({ tasks: 5, failed: 2, spent_usd: '0.05', refunded_usd: '0.01', net_usd: '0.04' });
    expect(byTool.body.balance_usd).toBe('0.96');
    const byDay = await api(svc.url, 'GET', '/v1/usage?group=day', { token: key });
    expect(byDay.body.rows).toEqual([
      { day: new Date().toISOString().slice(0, 10), tasks: 5, failed: 2, cancelled: 0, spent_usd: '0.05', refunded_usd: '0.01', net_usd: '0.04' },
    ]);
    const badRange = await api(svc.url, 'GET', '/v1/usage?from=2026-02-01&to=2026-01-01', { token: key });
    expect(badRange.status).toBe(400);
    expect(badRange.body).toMatchObject({ field: 'from', error: 'from: must be before to.' });
    expect((await api(svc.url, 'GET', '/v1/usage')).status).toBe(401);
  });
});

describe('rate limits', () => {
  it('429 with Retry-After and RateLimit-* headers once a key exceeds its limit', async () => {
    const limited = await startTestService({ RATE_LIMIT_PER_KEY: '3', RATE_LIMIT_PER_IP: '0' }, { tools: testTools });
    try {
      const { key } = await limited.createKey(1);
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < 4; i++) {
        last = await api(limited.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, body: { value: 'x' } });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([202, 202, 202, 429]);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(last!.headers.get('ratelimit-limit')).toBe('3');
      expect(last!.headers.get('ratelimit-remaining')).toBe('0');
      expect(last!.body.code).toBe('RATE_LIMITED');
    } finally {
      await limited.close();
    }
  });

  it('limits per client address too', async () => {
    const limited = await startTestService({ RATE_LIMIT_PER_IP: '2', RATE_LIMIT_PER_KEY: '0' }, { tools: testTools });
    try {
      const codes = [];
      for (let i = 0; i < 3; i++) codes.push((await api(limited.url, 'GET', '/v1/tasks/task_x')).status);
      expect(codes).toEqual([401, 401, 429]);
    } finally {
      await limited.close();
    }
  });
});
