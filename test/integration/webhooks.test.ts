// Webhooks end to end on both stores: a task, batch or failure produces a signed Standard Webhooks POST
// (verified with the `standardwebhooks` package), failing receivers are retried with backoff until the
// attempt budget runs out (counted in the delivery log, never timed), the guard refuses private targets at
// creation and at delivery, and another key reads neither the log nor the secret.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { ToolError } from '../../src/errors.js';
import { startLocalServer, type LocalServer } from '../support/local-http.js';
import { createTestSchema, type TestSchema } from '../support/postgres.js';
import { api, startTestService, type TestService } from '../support/service.js';

const echoTool = defineTool({
  name: 'test.echo',
  title: 'Echo',
  description: 'Answers its input; fails when asked to.',
  input: z.object({ text: z.string(), fail: z.boolean().optional() }),
  output: z.object({ text: z.string() }),
  price: '0.01',
  annotations: { readOnlyHint: true, openWorldHint: false },
  timeoutMs: 10_000,
  example: { text: 'hi' },
  run: async (_ctx, input) => {
    if (input.fail) throw new ToolError('asked to fail', 'permanent');
    return { text: input.text };
  },
});

interface Received {
  headers: Record<string, string>;
  body: string;
}

/** A loopback receiver that answers each POST with the next status of `statuses` (then 200), keeping what it got. */
async function receiver(statuses: number[] = []): Promise<{ server: LocalServer; received: Received[]; next: (n: number) => Promise<Received[]> }> {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const server = await startLocalServer({
    handler: (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
        res.statusCode = statuses.shift() ?? 200;
        res.end();
        for (const w of waiters.splice(0)) w();
      });
    },
  });
  // Waits (by events, not a clock) until n requests arrived; the test's own timeout bounds it.
  const next = async (n: number) => {
    while (received.length < n) await new Promise<void>((r) => waiters.push(r));
    return received;
  };
  return { server, received, next };
}

/** Reads the delivery log until `done` holds (bounded by a count of reads, not by time). */
async function logUntil(svc: TestService, path: string, key: string, done: (d: any[]) => boolean): Promise<any[]> {
  for (let i = 0; i < 400; i++) {
    const r = await api(svc.url, 'GET', path, { token: key });
    expect(r.status).toBe(200);
    if (done(r.body.deliveries)) return r.body.deliveries;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`the delivery log of ${path} never reached the expected state`);
}

describe.each(['sqlite', 'postgres'] as const)('webhooks on %s', (dialect) => {
  let svc: TestService;
  let pg: TestSchema | undefined;

  beforeAll(async () => {
    pg = dialect === 'postgres' ? await createTestSchema() : undefined;
    svc = await startTestService(
      { NETWORK_ALLOWLIST: '127.0.0.0/8', WEBHOOK_BACKOFF_MS: '1', WEBHOOK_MAX_BACKOFF_MS: '5', WEBHOOK_MAX_ATTEMPTS: '3', ...(pg?.env ?? {}) },
      { tools: [echoTool] },
    );
  });
  afterAll(async () => {
    await svc?.close();
    await pg?.drop();
  });

  it('a completed task is POSTed once, signed per Standard Webhooks with the key secret', async () => {
    const hook = await receiver();
    const { key } = await svc.createKey(1);
    const created = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, body: { text: 'hello', webhook_url: `${hook.server.origin}/hook` } });
    expect(created.status).toBe(202);
    const [msg] = await hook.next(1);
    const secret = (await api(svc.url, 'GET', '/v1/webhooks/secret', { token: key })).body.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const payload = new Webhook(secret).verify(msg!.body, msg!.headers) as any;
    expect(payload.type).toBe('task.completed');
    expect(payload.data.task_id).toBe(created.body.task_id);
    expect(payload.data.result).toEqual({ text: 'hello' });
    expect(msg!.headers['webhook-id']).toBe(`msg_${created.body.task_id}`);
    // A tampered body does not verify.
    expect(() => new Webhook(secret).verify(msg!.body.replace('hello', 'hellO'), msg!.headers)).toThrow();

    const log = await logUntil(svc, `/v1/tasks/${created.body.task_id}/webhooks`, key, (d) => d[0]?.status === 'delivered');
    expect(log).toHaveLength(1);
    expect(log[0].log.map((a: any) => a.http_status)).toEqual([200]);
    await hook.server.close();
  });

  it('retries a failing receiver with backoff, then delivers; and gives up after WEBHOOK_MAX_ATTEMPTS', async () => {
    const hook = await receiver([500, 503]);
    const { key } = await svc.createKey(1);
    const ok = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, body: { text: 'x', webhook_url: `${hook.server.origin}/a` } });
    const log = await logUntil(svc, `/v1/tasks/${ok.body.task_id}/webhooks`, key, (d) => d[0]?.status === 'delivered');
    expect(log[0].attempts).toBe(3);
    expect(log[0].log.map((a: any) => a.http_status)).toEqual([500, 503, 200]);
    const ids = new Set(hook.received.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);

    const always = await receiver([500, 500, 500, 500, 500]);
    const bad = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, body: { text: 'y', webhook_url: `${always.server.origin}/b` } });
    const failed = await logUntil(svc, `/v1/tasks/${bad.body.task_id}/webhooks`, key, (d) => d[0]?.status === 'failed');
    expect(failed[0].attempts).toBe(3);
    expect(failed[0].log).toHaveLength(3);
    expect(failed[0].last_error).toContain('500');
    expect(always.received).toHaveLength(3);
    // The outbox's state is on /metrics: at least these two, delivered and failed (other tests add theirs).
    const metrics = await (await fetch(`${svc.url}/metrics`)).text();
    expect(Number(/agent_utility_webhook_outbox\{status="delivered"\} (\d+)/.exec(metrics)?.[1])).toBeGreaterThanOrEqual(1);
    expect(Number(/agent_utility_webhook_outbox\{status="failed"\} (\d+)/.exec(metrics)?.[1])).toBeGreaterThanOrEqual(1);
    await hook.server.close();
    await always.server.close();
  });

  it('a failed task sends task.failed; webhook_events filters what is sent', async () => {
    const hook = await receiver();
    const { key } = await svc.createKey(1);
    const quiet = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', {
      token: key,
      body: { text: 'x', fail: true, webhook_url: `${hook.server.origin}/q`, webhook_events: ['task.completed'] },
    });
    const loud = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', {
      token: key,
      body: { text: 'x', fail: true, webhook_url: `${hook.server.origin}/l`, webhook_events: ['task.failed'] },
    });
    const [msg] = await hook.next(1);
    const secret = (await api(svc.url, 'GET', '/v1/webhooks/secret', { token: key })).body.secret as string;
    const payload = new Webhook(secret).verify(msg!.body, msg!.headers) as any;
    expect(payload.type).toBe('task.failed');
    expect(payload.data.task_id).toBe(loud.body.task_id);
    // The filtered-out task settled (failed) and has no message.
    for (let i = 0; i < 200; i++) {
      if ((await api(svc.url, 'GET', `/v1/tasks/${quiet.body.task_id}`, { token: key })).body.status === 'failed') break;
      await new Promise((res) => setTimeout(res, 20));
    }
    expect((await api(svc.url, 'GET', `/v1/tasks/${quiet.body.task_id}/webhooks`, { token: key })).body.deliveries).toEqual([]);
    await hook.server.close();
  });

  it('a batch sends batch.completed once every item finished', async () => {
    const hook = await receiver();
    const { key } = await svc.createKey(1);
    const created = await api(svc.url, 'POST', `/v1/tools/test.echo/batches?webhook_url=${encodeURIComponent(`${hook.server.origin}/batch`)}`, {
      token: key,
      body: { inputs: [{ text: 'a' }, { text: 'b' }, { text: 'c', fail: true }] },
    });
    expect(created.status).toBe(202);
    const [msg] = await hook.next(1);
    const secret = (await api(svc.url, 'GET', '/v1/webhooks/secret', { token: key })).body.secret as string;
    const payload = new Webhook(secret).verify(msg!.body, msg!.headers) as any;
    expect(payload.type).toBe('batch.completed');
    expect(payload.data.batch_id).toBe(created.body.batch_id);
    expect(payload.data.counts).toMatchObject({ complete: 2, failed: 1 });
    const log = await logUntil(svc, `/v1/batches/${created.body.batch_id}/webhooks`, key, (d) => d[0]?.status === 'delivered');
    expect(log).toHaveLength(1);
    await hook.server.close();
  });

  it('rotation: the new secret signs at once and the old one keeps verifying during the grace period', async () => {
    const hook = await receiver();
    const { key } = await svc.createKey(1);
    const before = (await api(svc.url, 'GET', '/v1/webhooks/secret', { token: key })).body.secret as string;
    const rotated = await api(svc.url, 'POST', '/v1/webhooks/secret/rotate', { token: key });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(before);
    expect(rotated.body.previous_valid_until).not.toBeNull();
    await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, body: { text: 'r', webhook_url: `${hook.server.origin}/r` } });
    const [msg] = await hook.next(1);
    expect(msg!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(() => new Webhook(rotated.body.secret).verify(msg!.body, msg!.headers)).not.toThrow();
    expect(() => new Webhook(before).verify(msg!.body, msg!.headers)).not.toThrow();
    await hook.server.close();
  });

  it('another key reads neither the delivery log nor the secret', async () => {
    const hook = await receiver();
    const a = await svc.createKey(1);
    const b = await svc.createKey(1);
    const created = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: a.key, body: { text: 'p', webhook_url: `${hook.server.origin}/p` } });
    const [msg] = await hook.next(1);
    const other = await api(svc.url, 'GET', `/v1/tasks/${created.body.task_id}/webhooks`, { token: b.key });
    expect(other.status).toBe(403);
    const poll = await api(svc.url, 'GET', `/v1/tasks/${created.body.task_id}/webhooks`, { token: created.body.poll_token });
    expect(poll.status).toBe(401);
    const secretB = (await api(svc.url, 'GET', '/v1/webhooks/secret', { token: b.key })).body.secret as string;
    const secretA = (await api(svc.url, 'GET', '/v1/webhooks/secret', { token: a.key })).body.secret as string;
    expect(secretB).not.toBe(secretA);
    expect(() => new Webhook(secretB).verify(msg!.body, msg!.headers)).toThrow();
    expect((await api(svc.url, 'GET', '/v1/webhooks/secret')).status).toBe(401);
    await hook.server.close();
  });

  it('bad webhook options are a 400 naming the field, before anything is charged', async () => {
    const { key } = await svc.createKey(1);
    const cases: [Record<string, unknown>, string][] = [
      [{ webhook_url: 'ftp://example.com/x' }, 'webhook_url'],
      [{ webhook_url: 'not a url' }, 'webhook_url'],
      [{ webhook_url: 'http://10.0.0.1/hook' }, 'webhook_url'],
      [{ webhook_url: 'http://192.168.1.1/hook' }, 'webhook_url'],
      [{ webhook_url: 42 }, 'webhook_url'],
      [{ webhook_url: 'https://example.com/h', webhook_events: ['task.exploded'] }, 'webhook_events'],
      [{ webhook_url: 'https://example.com/h', webhook_events: [] }, 'webhook_events'],
      [{ webhook_events: ['task.completed'] }, 'webhook_events'],
    ];
    for (const [extra, field] of cases) {
      const r = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, body: { text: 'z', ...extra } });
      expect(r.status, JSON.stringify(extra)).toBe(400);
      expect(r.body.field, JSON.stringify(extra)).toBe(field);
    }
    const batch = await api(svc.url, 'POST', '/v1/tools/test.echo/batches?webhook_url=http%3A%2F%2F10.1.2.3%2F', {
      token: key,
      body: { inputs: [{ text: 'a' }] },
    });
    expect(batch.status).toBe(400);
    const usage = await api(svc.url, 'GET', '/v1/usage', { token: key });
    expect(usage.body.total?.tasks ?? 0).toBe(0);
  });
});

describe('webhooks without a loopback allowance', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ WEBHOOK_BACKOFF_MS: '1', WEBHOOK_MAX_ATTEMPTS: '3' }, { tools: [echoTool] });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('a name that resolves to a private address is refused at delivery, for good, and nothing reaches it', async () => {
    const hook = await receiver();
    const { key } = await svc.createKey(1);
    const literal = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, body: { text: 'x', webhook_url: `${hook.server.origin}/x` } });
    expect(literal.status).toBe(400);
    expect(literal.body.field).toBe('webhook_url');
    const created = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', {
      token: key,
      body: { text: 'x', webhook_url: `http://localhost:${hook.server.port}/x` },
    });
    expect(created.status).toBe(202);
    const log = await logUntil(svc, `/v1/tasks/${created.body.task_id}/webhooks`, key, (d) => d[0]?.status === 'failed');
    expect(log[0].attempts).toBe(1);
    expect(log[0].last_error).toMatch(/private|public/i);
    expect(hook.server.connections).toBe(0);
    await hook.server.close();
  });
});
