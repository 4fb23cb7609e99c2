// The two process roles of a scale-out deployment, run from the built CLI: `serve --no-workers` answers
// the API but runs nothing, and `worker [--tools …]` runs tasks without serving HTTP. Both on SQLite (one
// machine, one shared file) and on PostgreSQL (a dedicated dns.lookup worker pool).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, spawnCli, stopChild, waitForHttp } from '../support/cli.js';
import { freePort } from '../support/free-port.js';
import { startKnot, type KnotServer } from '../support/knot.js';
import { createTestSchema, type TestSchema } from '../support/postgres.js';
import { api } from '../support/service.js';

let knot: KnotServer;
let schema: TestSchema;
const children: ChildProcess[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  knot = await startKnot([{ origin: 'roles.test', records: ['@ 300 IN A 127.0.0.5', 'www 300 IN A 127.0.0.6'] }]);
  schema = await createTestSchema();
});
afterAll(async () => {
  await Promise.all(children.map((c) => stopChild(c, 'SIGKILL')));
  await knot?.stop();
  await schema?.drop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function baseEnv(extra: Record<string, string>): Record<string, string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-roles-'));
  dirs.push(dataDir);
  return { DATA_DIR: dataDir, SECRET: 's'.repeat(40), DNS_SERVERS: knot.server, LOG_LEVEL: 'warn', LEADS_PORT: '0', POLL_INTERVAL_MS: '100', ...extra };
}

async function roles(env: Record<string, string>, workerArgs: string[]): Promise<void> {
  const key = runCli(['keys', 'create', '--credits', '1'], { ...env, LOG_LEVEL: 'silent' });
  expect(key.status, key.stderr).toBe(0);
  const token = key.stdout.trim();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const apiNode = spawnCli(['serve', '--no-workers', '--port', String(port)], env);
  children.push(apiNode);
  await waitForHttp(`${url}/healthz`);

  // No worker anywhere yet: the API node accepts the task but does not run it.
  const first = await api(url, 'POST', '/v1/tools/dns.lookup/tasks', { token, body: { domain: 'roles.test', record_type: 'A' } });
  expect(first.status).toBe(202);
  const stillPending = await api(url, 'GET', `${first.body.poll_url}?wait=1`, { token: first.body.poll_token });
  expect(stillPending.body.status).toBe('pending');

  const worker = spawnCli(['worker', ...workerArgs], env);
  children.push(worker);
  const done = await api(url, 'GET', `${first.body.poll_url}?wait=25`, { token: first.body.poll_token });
  expect(done.body.status).toBe('complete');
  expect(done.body.result.records.A).toEqual(['127.0.0.5']);

  // The worker keeps running and takes the next task too.
  const second = await api(url, 'POST', '/v1/tools/dns.lookup/tasks', { token, body: { domain: 'www.roles.test', record_type: 'A' } });
  const done2 = await api(url, 'GET', `${second.body.poll_url}?wait=25`, { token: second.body.poll_token });
  expect(done2.body.result.records.A).toEqual(['127.0.0.6']);
  expect(worker.exitCode).toBeNull();

  await stopChild(worker, 'SIGTERM');
  await stopChild(apiNode, 'SIGTERM');
  expect(worker.exitCode).toBe(0);
  expect(apiNode.exitCode).toBe(0);
}

describe('process roles: serve --no-workers and worker', () => {
  it('on SQLite, sharing one data directory', async () => {
    const env = baseEnv({});
    await roles(env, []);
  });

  it('on PostgreSQL, with a dedicated dns.lookup worker pool', async () => {
    const env = baseEnv({ ...schema.env });
    await roles(env, ['--tools', 'dns.lookup']);
  });

  it('a worker asked for a tool that does not exist refuses to start', () => {
    const r = runCli(['worker', '--tools', 'no.such_tool'], { ...baseEnv({}), LOG_LEVEL: 'error' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/no\.such_tool/);
  });
});
