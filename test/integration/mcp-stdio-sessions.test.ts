// Two `agent-utility mcp` sessions on one data directory (two Claude Code windows with the default
// ~/.agent-utility): the BUILT CLI, spawned twice by the official SDK client. Each session runs one task at
// a time (WORKER_CONCURRENCY=1), so when it makes several calls at once most of them wait in the shared
// queue while the other session sits idle, polling it. A call's progress and its file link live in the
// process that runs it: every one must be the caller's. A session killed with tasks in hand leaves them
// to the other once its lease (LEASE_MS) expires.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, CreateTaskResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli.js';
import { startLocalServer, type LocalServer } from '../support/local-http.js';
import { inArrivalOrder } from '../support/mcp-arrival-order.js';

/** How long /slow takes to answer: the time a session's only worker is busy. */
const SLOW_MS = 1500;
/** How long /pause takes: long enough for the idle session's poll (50 ms) to find the calls still waiting. */
const PAUSE_MS = 300;
/** The kill test's lease: short, so the takeover comes soon, yet well past a renewal delayed by a busy machine. */
const SHORT_LEASE_MS = 3000;

let web: LocalServer;
let dataDir: string;
let slowRequests = 0;
const stderrChunks: string[] = [];

interface Session {
  client: Client;
  transport: StdioClientTransport;
}
const open: Session[] = [];

/** A session on the shared data directory; `leaseMs` unset keeps the default (30 s): no takeover in the test's time. */
async function startSession(leaseMs?: number): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'mcp'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      DATA_DIR: dataDir,
      SECRET: 's'.repeat(40),
      LOG_LEVEL: 'warn',
      NETWORK_ALLOWLIST: '127.0.0.0/8',
      POLL_INTERVAL_MS: '50',
      WORKER_CONCURRENCY: '1',
      ...(leaseMs ? { LEASE_MS: String(leaseMs) } : {}),
      ...(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {}),
    },
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => stderrChunks.push(chunk.toString()));
  const client = new Client({ name: 'agent-utility-sessions-test', version: '1.0.0' });
  await client.connect(inArrivalOrder(transport));
  const s = { client, transport };
  open.push(s);
  return s;
}

const urlStatus = (p: string) => ({ name: 'url_status', arguments: { url: `${web.origin}${p}` } });

async function until(ok: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${stderrChunks.join('')}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  web = await startLocalServer({
    handler: (req: IncomingMessage, res: ServerResponse) => {
      if (req.url === '/slow') {
        slowRequests++;
        setTimeout(() => res.end('slow'), SLOW_MS);
        return;
      }
      if (req.url === '/pause') {
        setTimeout(() => res.end('paused'), PAUSE_MS);
        return;
      }
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end('<!doctype html><title>Fixture</title><p>ok</p>');
    },
  });
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.client.close().catch(() => undefined)));
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

afterAll(async () => {
  await web?.close();
});

describe('two agent-utility mcp sessions on one data directory', () => {
  it("each session hears the progress of its own calls, and serves its own calls' file links", async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-mcp-sessions-'));
    const a = await startSession();
    const b = await startSession();
    for (const [caller, other] of [
      [a, b],
      [b, a],
    ] as const) {
      await other.client.listTools(); // the other session is up: its workers poll the shared queue
      const calls = Array.from({ length: 4 }, async () => {
        const seen: { progress: number; message?: string }[] = [];
        const result = (await caller.client.callTool(urlStatus('/pause'), CallToolResultSchema, { onprogress: (p) => seen.push(p) })) as CallToolResult;
        return { result, seen };
      });
      for (const { result, seen } of await Promise.all(calls)) {
        expect(result.structuredContent).toMatchObject({ status_code: 200 });
        expect(seen[0], stderrChunks.join('')).toMatchObject({ progress: 0, message: expect.stringMatching(/started/) });
      }
    }

    // A's screenshots wait for A's one worker, not for B's; their links are A's and outlive B.
    const shots = await Promise.all(
      [1, 2, 3].map(
        async (n) =>
          (await a.client.callTool({ name: 'browser_screenshot', arguments: { html: `<h1>Mine ${n}</h1>`, width: 200, height: 100 } }, CallToolResultSchema, {
            timeout: 60_000,
          })) as CallToolResult,
      ),
    );
    await b.client.close();
    for (const shot of shots) {
      expect(shot.isError, JSON.stringify(shot.content)).toBeFalsy();
      const res = await fetch((shot.structuredContent as { file_url: string }).file_url);
      expect(res.status).toBe(200);
      expect(
        Buffer.from(await res.arrayBuffer())
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
    }
  }, 90_000);

  it('a task left by a killed session is completed by the other', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-mcp-sessions-'));
    const a = await startSession(SHORT_LEASE_MS);
    const b = await startSession(SHORT_LEASE_MS);
    await b.client.listTools();
    const submit = async (s: Session, p: string) =>
      (await s.client.request({ method: 'tools/call', params: { ...urlStatus(p), task: {} } }, CreateTaskResultSchema)).task.taskId;
    const before = slowRequests;
    const running = await submit(a, '/slow');
    await until(() => slowRequests > before, "A's slow task to start");
    const pending = await submit(a, '/');
    // B is idle and polls the queue, but A's waiting task stays A's while A lives.
    await new Promise((r) => setTimeout(r, 400));
    expect((await b.client.experimental.tasks.getTask(pending)).status).toBe('working');

    process.kill(a.transport.pid!, 'SIGKILL');
    const status = async (id: string) => (await b.client.experimental.tasks.getTask(id)).status;
    // Both come to B once A's leases lapse: the pending task as it is, the running one run again.
    await until(async () => (await status(pending)) === 'completed' && (await status(running)) === 'completed', "B to complete A's tasks", 30_000);
    const result = (await b.client.experimental.tasks.getTaskResult(pending, CallToolResultSchema)) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ status_code: 200 });
    expect(slowRequests).toBe(before + 2);
  }, 60_000);
});
