// A malformed MCP initialize is answered InvalidParams (-32602) with one sentence naming the field, in the
// shared wording (issue #26), for both 2025 protocol revisions, over HTTP and over stdio. The SDK alone
// answered it as an internal error (-32603) whose message was zod's raw issue list.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli.js';
import { startMcpService, type McpTestService } from '../support/mcp-service.js';
import { testTools } from '../support/test-tools.js';

let svc: McpTestService;
let key: string;

beforeAll(async () => {
  svc = await startMcpService({}, { tools: testTools });
  ({ key } = await svc.createKey(1));
});
afterAll(async () => {
  await svc?.close();
});

const CASES: [string, Record<string, unknown>, string, string][] = [
  ['no clientInfo', { capabilities: {} }, 'clientInfo', 'clientInfo: is required'],
  ['a clientInfo name that is not text', { capabilities: {}, clientInfo: { name: 1, version: '1' } }, 'clientInfo.name', 'clientInfo.name: must be a string'],
];

describe.each(['2025-06-18', '2025-11-25'])('initialize at %s over HTTP', (version) => {
  it.each(CASES)('%s', async (_name, params, field, sentence) => {
    const res = await fetch(`${svc.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: version, ...params } }),
    });
    const body = (await res.json()) as { error: { code: number; message: string; data?: { field?: string } } };
    expect(body.error).toEqual({ code: -32602, message: sentence, data: { field } });
  });

  it('a protocolVersion that is not text', async () => {
    const res = await fetch(`${svc.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: 20250618, capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      }),
    });
    expect(((await res.json()) as { error: unknown }).error).toEqual({
      code: -32602,
      message: 'protocolVersion: must be a string',
      data: { field: 'protocolVersion' },
    });
  });
});

describe('initialize over stdio', () => {
  it('answers a malformed initialize with the same sentence', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-mcp-init-'));
    const child = spawn(process.execPath, [CLI, 'mcp'], {
      env: { ...process.env, DATA_DIR: dataDir, SECRET: 's'.repeat(40), LOG_LEVEL: 'silent', LEADS_PORT: '0' },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    try {
      const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
      child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } })}\n`);
      const first = await lines.next();
      expect(JSON.parse(String(first.value))).toEqual({
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32602, message: 'clientInfo: is required', data: { field: 'clientInfo' } },
      });
    } finally {
      child.kill('SIGTERM');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
