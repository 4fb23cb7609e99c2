// The built CLI end to end: a key made with `keys`, `serve` answering dns.lookup tasks against a real
// Knot, and a SIGKILL in the middle of running tasks followed by a restart: every task completes,
// charged once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKnot, type KnotServer } from '../support/knot.js';
import { startDnsProxy, type DnsProxy } from '../support/dns-proxy.js';
import { runCli, spawnCli, stopChild, waitForHttp } from '../support/cli.js';
import { freePort } from '../support/free-port.js';
import { api } from '../support/service.js';

let knot: KnotServer;
let proxy: DnsProxy;
const children: ChildProcess[] = [];

beforeAll(async () => {
  knot = await startKnot([{ origin: 'e2e.test', records: ['@ 300 IN A 127.0.0.1', 'www 300 IN A 127.0.0.2', '@ 300 IN MX 10 mail'] }]);
  proxy = await startDnsProxy(knot.server);
});
afterAll(async () => {
  await Promise.all(children.map((c) => stopChild(c, 'SIGKILL')));
  await proxy?.close();
  await knot?.stop();
});

function env(dataDir: string, port: number): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    PORT: String(port),
    DNS_SERVERS: proxy.server,
    LEASE_MS: '1500',
    POLL_INTERVAL_MS: '100',
    LOG_LEVEL: 'warn',
    LEADS_PORT: '0',
    RATE_LIMIT_PER_IP: '0',
  };
}

describe('agent-utility CLI', () => {
  it('keys create prints only the key; list, credit and revoke work; bad input exits 2', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-cli-'));
    const e = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
    const created = runCli(['keys', 'create', '--credits', '2.5', '--label', 'ci'], e);
    expect(created.status).toBe(0);
    expect(created.stdout).toMatch(/^sk_live_[A-Za-z0-9_-]{43}\n$/);
    const list = JSON.parse(runCli(['keys', 'list', '--json'], e).stdout);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ label: 'ci', balance_usd: '2.5', revoked_at: null });
    const credited = JSON.parse(runCli(['keys', 'credit', list[0].id, '1.25', '--json'], e).stdout);
    expect(credited.balance_usd).toBe('3.75');
    const revoked = JSON.parse(runCli(['keys', 'revoke', created.stdout.trim(), '--json'], e).stdout);
    expect(revoked.revoked_at).not.toBeNull();
    const bad = runCli(['keys', 'create', '--credits', 'lots'], e);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--credits must be a USD amount/);
    expect(runCli(['nonsense'], e).status).toBe(2);
    const badEnv = runCli(['keys', 'list'], { ...e, PORT: 'eighty', SECRET: 'short' });
    expect(badEnv.status).toBe(2);
    expect(badEnv.stderr).toMatch(/PORT/);
    expect(badEnv.stderr).toMatch(/SECRET/);
  });

  it('serves dns.lookup tasks, and finishes running tasks after a SIGKILL and restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-cli-'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const key = runCli(['keys', 'create', '--credits', '1'], { DATA_DIR: dataDir, LOG_LEVEL: 'silent' }).stdout.trim();

    let server = spawnCli(['serve'], env(dataDir, port));
    children.push(server);
    await waitForHttp(`${url}/healthz`);

    // A task that completes normally.
    const first = await api(url, 'POST', '/v1/tools/dns.lookup/tasks', { token: key, body: { domain: 'e2e.test', record_type: 'A' } });
    expect(first.status).toBe(202);
    const done = await api(url, 'GET', `${first.body.poll_url}?wait=20`, { token: first.body.poll_token });
    expect(done.body.status).toBe('complete');
    expect(done.body.result.records.A).toEqual(['127.0.0.1']);

    // Hold DNS answers so the next tasks stay running, then kill the process without warning.
    proxy.mode = 'hold';
    const names = ['e2e.test', 'www.e2e.test'];
    const created = [];
    for (let i = 0; i < 4; i++) {
      const r = await api(url, 'POST', '/v1/tools/dns.lookup/tasks', { token: key, body: { domain: names[i % 2], record_type: 'A' } });
      expect(r.status).toBe(202);
      created.push(r.body);
    }
    for (const c of created) {
      for (;;) {
        const t = await api(url, 'GET', c.poll_url, { token: c.poll_token });
        if (t.body.status === 'running') break;
        expect(t.body.status).toBe('pending');
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    await stopChild(server, 'SIGKILL');
    proxy.mode = 'forward';

    server = spawnCli(['serve'], env(dataDir, port));
    children.push(server);
    await waitForHttp(`${url}/healthz`);
    for (const [i, c] of created.entries()) {
      const t = await api(url, 'GET', `${c.poll_url}?wait=25`, { token: c.poll_token });
      expect(t.body.status).toBe('complete');
      expect(t.body.attempts).toBe(2);
      expect(t.body.result.records.A).toEqual([i % 2 === 0 ? '127.0.0.1' : '127.0.0.2']);
    }
    // Charged exactly once per task: 5 tasks × 0.001 USD.
    const keys = JSON.parse(runCli(['keys', 'list', '--json'], { DATA_DIR: dataDir, LOG_LEVEL: 'silent' }).stdout);
    expect(keys[0].balance_usd).toBe('0.995');
    await stopChild(server, 'SIGTERM');
    expect(server.exitCode).toBe(0);
  });
});
