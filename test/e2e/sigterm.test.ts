// SIGTERM during load, on the built CLI worker: tasks that finish within SHUTDOWN_GRACE_MS settle, those
// still running when it ends are given back to the queue at once (not left `running` until their lease
// expires), the process exits 0, and the next worker runs them to completion, each charged once. The
// slow tasks are url.status checks of a local server that holds its answers until the test lets it go.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli, stopChild } from '../support/cli.js';
import { createTestSchema, type TestSchema } from '../support/postgres.js';
import { api, startTestService, type TestService } from '../support/service.js';

let schema: TestSchema;
let svc: TestService;
let target: http.Server;
let holding = true;
const held: http.ServerResponse[] = [];
let slowHits = 0;
let onSlowHit: () => void = () => undefined;
const children: ChildProcess[] = [];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-sigterm-'));

beforeAll(async () => {
  schema = await createTestSchema();
  target = http.createServer((req, res) => {
    if (req.url?.startsWith('/slow')) {
      slowHits++;
      onSlowHit();
      if (holding) return void held.push(res);
    }
    res.end('ok');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  svc = await startTestService({ ...schema.env, NETWORK_ALLOWLIST: '127.0.0.0/8', RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_KEY: '0' }, { workers: false });
});
afterAll(async () => {
  await Promise.all(children.map((c) => stopChild(c, 'SIGKILL')));
  for (const r of held) r.destroy();
  target.closeAllConnections();
  await new Promise((resolve) => target.close(resolve));
  await svc?.close();
  await schema?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function worker(): ChildProcess {
  const child = spawnCli(['worker'], {
    ...schema.env,
    DATA_DIR: dataDir,
    SECRET: 's'.repeat(40),
    NETWORK_ALLOWLIST: '127.0.0.0/8',
    POLL_INTERVAL_MS: '100',
    SHUTDOWN_GRACE_MS: '300',
    LOG_LEVEL: 'warn',
  });
  children.push(child);
  return child;
}

describe('SIGTERM during load', () => {
  it('settles what finishes within the grace period, gives the rest back at once, and the next worker completes them', async () => {
    const { key, id: keyId } = await svc.createKey(1);
    const base = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    const create = async (p: string) => {
      const r = await api(svc.url, 'POST', '/v1/tools/url.status/tasks', { token: key, body: { url: `${base}${p}`, timeout_ms: 30_000 } });
      expect(r.status).toBe(202);
      return { id: r.body.task_id as string, token: r.body.poll_token as string };
    };
    const allSlowStarted = new Promise<void>((resolve) => (onSlowHit = () => slowHits >= 3 && resolve()));
    const slow = [await create('/slow/1'), await create('/slow/2'), await create('/slow/3')];
    const fast = [await create('/fast/1'), await create('/fast/2')];

    const first = worker();
    for (const t of fast) expect((await api(svc.url, 'GET', `/v1/tasks/${t.id}?wait=25`, { token: t.token })).body.status).toBe('complete');
    await allSlowStarted;
    await stopChild(first, 'SIGTERM');
    expect(first.exitCode).toBe(0);

    // Nothing is left running: the interrupted tasks are pending again, with their attempt counted.
    const rows = await schema.query<{ id: string; status: string; attempts: number }>('SELECT id, status, attempts FROM tasks WHERE id = ANY($1)', [
      slow.map((t) => t.id),
    ]);
    expect(rows).toHaveLength(3);
    for (const r of rows) expect(r).toMatchObject({ status: 'pending', attempts: 1 });
    expect(await schema.query("SELECT id FROM tasks WHERE status = 'running'")).toEqual([]);

    holding = false;
    for (const r of held.splice(0)) r.destroy();
    const second = worker();
    for (const t of slow) {
      const done = await api(svc.url, 'GET', `/v1/tasks/${t.id}?wait=25`, { token: t.token });
      expect(done.body.status).toBe('complete');
      expect(done.body.result.status_code).toBe(200);
    }
    await stopChild(second, 'SIGTERM');
    expect(second.exitCode).toBe(0);
    const ledger = await schema.query<{ reason: string; n: number }>(
      "SELECT reason, count(*)::int AS n FROM credit_ledger WHERE key_id = $1 AND reason <> 'grant' GROUP BY reason",
      [keyId],
    );
    expect(ledger).toEqual([{ reason: 'charge', n: 5 }]);
  });
});
