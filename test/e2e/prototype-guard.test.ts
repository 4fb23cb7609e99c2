// The built CLI's long-running commands run without the `__proto__` accessor (what
// `node --disable-proto=delete` does), so a caller-named "__proto__" key that slipped past validation can
// never write Object.prototype. A probe module loaded with --import reports, as the process exits, whether
// Object.prototype still has the accessor and whether a naive dotted-path merge reached Object.prototype.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, runCli, waitForHttp } from '../support/cli.js';
import { freePort } from '../support/free-port.js';
import { api } from '../support/service.js';

let dir: string;
let probe: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-proto-'));
  probe = path.join(dir, 'probe.mjs');
  fs.writeFileSync(
    probe,
    `process.on('exit', () => {
  const accessor = Object.getOwnPropertyDescriptor(Object.prototype, '__proto__') ? 'present' : 'absent';
  // What the old CSV reader did with a "__proto__.probe_polluted" header.
  const row = {};
  const next = row['__proto__'];
  const target = next && typeof next === 'object' ? next : (row['__proto__'] = {});
  target['probe_polluted'] = 1;
  const polluted = ({}).probe_polluted === 1 ? 'polluted' : 'clean';
  delete Object.prototype.probe_polluted;
  process.stderr.write('\\nPROBE ' + accessor + ' ' + polluted + '\\n');
});
`,
  );
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  const dataDir = fs.mkdtempSync(path.join(dir, 'data-'));
  return { ...process.env, DATA_DIR: dataDir, SECRET: 's'.repeat(40), LOG_LEVEL: 'info', LEADS_PORT: '0', ...extra } as Record<string, string>;
}

function start(
  args: string[],
  e: Record<string, string>,
  stdin: 'ignore' | 'pipe' = 'ignore',
): { child: ChildProcess; stderr: () => string; exited: Promise<void> } {
  const child = spawn(process.execPath, ['--import', probe, CLI, ...args], { env: e, stdio: [stdin, 'pipe', 'pipe'] });
  let err = '';
  child.stdout!.resume();
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, stderr: () => err, exited };
}

async function waitForLine(stderr: () => string, text: string): Promise<void> {
  for (let i = 0; i < 300 && !stderr().includes(text); i++) await new Promise((r) => setTimeout(r, 100));
  expect(stderr()).toContain(text);
}

describe('the __proto__ accessor in the built CLI', () => {
  it('serve runs without it, and its API still answers', async () => {
    const e = env();
    const key = runCli(['keys', 'create', '--credits', '1'], { ...e, LOG_LEVEL: 'silent' }).stdout.trim();
    const port = await freePort();
    const s = start(['serve', '--port', String(port)], e);
    await waitForHttp(`http://127.0.0.1:${port}/healthz`);
    const created = await api(`http://127.0.0.1:${port}`, 'POST', '/v1/tools/ip.geolocate/tasks', { token: key, body: { ip: '8.8.8.8' } });
    expect(created.status).toBe(202);
    s.child.kill('SIGTERM');
    await s.exited;
    expect(s.stderr()).toContain('PROBE absent clean');
  });

  it('worker runs without it', async () => {
    const s = start(['worker'], env());
    await waitForLine(s.stderr, 'agent-utility worker started');
    s.child.kill('SIGTERM');
    await s.exited;
    expect(s.stderr()).toContain('PROBE absent clean');
  });

  it('mcp (stdio) runs without it', async () => {
    const s = start(['mcp'], env(), 'pipe');
    s.child.stdin!.end(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
    );
    await s.exited;
    expect(s.stderr()).toContain('PROBE absent clean');
  });

  it('a one-shot command keeps the accessor (the probe sees the difference)', async () => {
    const s = start(['keys', 'list'], env());
    await s.exited;
    expect(s.stderr()).toContain('PROBE present polluted');
  });
});
