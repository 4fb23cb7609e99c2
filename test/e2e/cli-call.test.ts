// The built `agent-utility call` end to end: against a running service (AGENT_UTILITY_URL + _KEY) and
// with neither set (an embedded engine on a fresh data directory). Not a terminal, so no status line.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli.js';
import { startDnsProxy, type DnsProxy } from '../support/dns-proxy.js';
import { startKnot, type KnotServer } from '../support/knot.js';
import { startTestService, type TestService } from '../support/service.js';
import { testTools } from '../support/test-tools.js';

function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'error', ...env } }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

let svc: TestService;
let key: string;
let knot: KnotServer;
let proxy: DnsProxy;
beforeAll(async () => {
  svc = await startTestService({}, { tools: testTools });
  key = (await svc.createKey(1)).key;
  knot = await startKnot([{ origin: 'call.test', records: ['@ 300 IN A 127.0.0.1'] }]);
  proxy = await startDnsProxy(knot.server);
});
afterAll(async () => {
  await svc?.close();
  await proxy?.close();
  await knot?.stop();
});

describe('agent-utility call', () => {
  it('remote: prints the result JSON on stdout and exits 0, with nothing on stderr', async () => {
    const r = await cli(['call', 'test.echo', '--value', 'hello'], { AGENT_UTILITY_URL: svc.url, AGENT_UTILITY_KEY: key });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ value: 'hello' });
    expect(r.stderr).toBe('');
  });

  it('remote: a failed task exits 1, a bad input exits 2', async () => {
    const failed = await cli(['call', 'test.fail', '--json', '{"kind":"permanent"}'], { AGENT_UTILITY_URL: svc.url, AGENT_UTILITY_KEY: key });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('failed as asked');
    const bad = await cli(['call', 'test.echo', '--value', ''], { AGENT_UTILITY_URL: svc.url, AGENT_UTILITY_KEY: key });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('value');
  });

  it('embedded: runs on the local data directory and writes --out', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-call-'));
    const out = path.join(dir, 'result.json');
    const r = await cli(['call', 'dns.lookup', '--domain', 'call.test', '--out', out], { DATA_DIR: dir, DNS_SERVERS: proxy.server });
    expect(r.code).toBe(0);
    expect(JSON.parse(fs.readFileSync(out, 'utf8'))).toMatchObject({ domain: 'call.test', records: { A: ['127.0.0.1'] } });
    const usage = await cli(['call'], { DATA_DIR: dir });
    expect(usage.code).toBe(2);
  });
});
