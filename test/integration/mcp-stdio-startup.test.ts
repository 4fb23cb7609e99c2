// `agent-utility mcp` answers the handshake before its engine exists: initialize comes from the server's
// static capabilities, and the engine (store, workers) starts only after the client says `initialized`.
// Proved with a data directory the store cannot open: the handshake still succeeds, and the failure is
// reported (exit 1, a logged reason) only once the engine is asked to start.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-mcp-startup-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('agent-utility mcp start-up', () => {
  it('answers initialize without its engine, and reports the engine failing once it starts', async () => {
    const notADirectory = path.join(dir, 'file');
    fs.writeFileSync(notADirectory, 'a file where the data directory should be');
    const child = spawn(process.execPath, [CLI, 'mcp'], {
      env: { ...process.env, DATA_DIR: notADirectory, LOG_LEVEL: 'error' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const firstLine = new Promise<string>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`exited (${code}) before answering: ${stderr}`)));
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
      });
    });
    const initialize = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'startup-test', version: '1' } };
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initialize })}\n`);
    const answer = JSON.parse(await firstLine) as { id: number; result?: { serverInfo?: { name?: string }; capabilities?: Record<string, unknown> } };
    expect(answer.id).toBe(1);
    expect(answer.result?.serverInfo?.name).toBe('agent-utility');
    expect(answer.result?.capabilities).toHaveProperty('tools');

    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    expect(await exited).toBe(1);
    expect(stderr).toMatch(/mcp stdio session could not start/);
  });

  it('answers initialize once (early, before the SDK loads), then serves tools/list from the SDK server', async () => {
    const dataDir = fs.mkdtempSync(path.join(dir, 'data-'));
    const child = spawn(process.execPath, [CLI, 'mcp'], { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error' }, stdio: ['pipe', 'pipe', 'inherit'] });
    const lines: { id?: unknown; result?: { tools?: unknown[] } }[] = [];
    const listed = new Promise<void>((resolve) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        for (let i; (i = out.indexOf('\n')) >= 0; out = out.slice(i + 1)) {
          lines.push(JSON.parse(out.slice(0, i)) as (typeof lines)[number]);
          if (lines.at(-1)?.id === 2) resolve();
        }
      });
    });
    const send = (m: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'startup-test', version: '1' } } });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/list', params: {} });
    await listed;
    send({ id: 3, method: 'ping' });
    await new Promise<void>((resolve) => child.stdout.on('data', () => lines.some((l) => l.id === 3) && resolve()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin.end();
    await exited;
    expect(lines.map((l) => l.id)).toEqual([1, 2, 3]);
    expect(lines[1]?.result?.tools?.length).toBeGreaterThan(0);
  });
});
