// At least once, proven with a real crash: a worker process (the built `agent-utility worker`) runs a task
// that has a webhook, starts delivering its event to a loopback receiver that holds the request open, and
// is SIGKILLed mid-request. A second worker, started afterwards, delivers the same message again (same
// webhook-id, valid Standard Webhooks signature), and the delivery log shows both attempts.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli, stopChild } from '../support/cli.js';
import { startLocalServer, type LocalServer } from '../support/local-http.js';
import { api, startTestService, type TestService } from '../support/service.js';

interface Hook {
  headers: Record<string, string>;
  body: string;
  res: ServerResponse;
}

let dataDir: string;
let svc: TestService;
let receiver: LocalServer;
const hooks: Hook[] = [];
const waiters: (() => void)[] = [];
const children: ChildProcess[] = [];

async function nextHook(n: number): Promise<Hook> {
  while (hooks.length < n) await new Promise<void>((r) => waiters.push(r));
  return hooks[n - 1]!;
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-webhook-kill-'));
  receiver = await startLocalServer({
    handler: (req: IncomingMessage, res: ServerResponse) => {
      if (req.url !== '/hook') {
        res.end('a page');
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        // Never answered here: the test decides (the first request is left hanging until its sender dies).
        hooks.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8'), res });
        for (const w of waiters.splice(0)) w();
      });
    },
  });
  // This process only takes requests; tasks run and webhooks leave from the worker processes.
  svc = await startTestService({ DATA_DIR: dataDir, NETWORK_ALLOWLIST: '127.0.0.0/8' }, { workers: false });
});

afterAll(async () => {
  for (const c of children) await stopChild(c, 'SIGKILL');
  for (const h of hooks) h.res.destroy();
  await svc?.close();
  await receiver?.close();
});

function startWorker(): ChildProcess {
  const child = spawnCli(['worker'], {
    DATA_DIR: dataDir,
    SECRET: 'x'.repeat(40),
    NETWORK_ALLOWLIST: '127.0.0.0/8',
    LOG_LEVEL: 'silent',
    POLL_INTERVAL_MS: '50',
    // A crashed sender's claim is taken over once its lease ends; short here so the test is quick.
    WEBHOOK_LEASE_MS: '1500',
    WEBHOOK_TIMEOUT_MS: '120000',
  });
  children.push(child);
  return child;
}

describe('webhooks survive a SIGKILLed worker', () => {
  it('the event is delivered again, with the same webhook-id, after the sender is killed mid-request', async () => {
    const { key } = await svc.createKey(1);
    const created = await api(svc.url, 'POST', '/v1/tools/url.status/tasks', {
      token: key,
      body: { url: `${receiver.origin}/page`, webhook_url: `${receiver.origin}/hook` },
    });
    expect(created.status).toBe(202);

    const first = startWorker();
    const held = await nextHook(1);
    await stopChild(first, 'SIGKILL');
    expect(first.signalCode).toBe('SIGKILL');
    held.res.destroy();

    startWorker();
    const again = await nextHook(2);
    again.res.statusCode = 200;
    again.res.end();

    expect(again.headers['webhook-id']).toBe(held.headers['webhook-id']);
    expect(again.headers['webhook-id']).toBe(`msg_${created.body.task_id}`);
    const secret = (await api(svc.url, 'GET', '/v1/webhooks/secret', { token: key })).body.secret as string;
    const payload = new Webhook(secret).verify(again.body, again.headers) as any;
    expect(payload.type).toBe('task.completed');
    expect(payload.data.task_id).toBe(created.body.task_id);
    expect(JSON.parse(held.body)).toEqual(payload);

    let deliveries: any[] = [];
    for (let i = 0; i < 200 && deliveries[0]?.status !== 'delivered'; i++) {
      deliveries = (await api(svc.url, 'GET', `/v1/tasks/${created.body.task_id}/webhooks`, { token: key })).body.deliveries;
      if (deliveries[0]?.status !== 'delivered') await new Promise((r) => setTimeout(r, 50));
    }
    expect(deliveries[0].status).toBe('delivered');
    expect(deliveries[0].attempts).toBe(2);
    // The killed attempt left no outcome; the second one answered 200.
    expect(deliveries[0].log.map((a: any) => a.http_status)).toEqual([null, 200]);
    expect(deliveries[0].log[0].duration_ms).toBeNull();
  }, 120_000);
});
