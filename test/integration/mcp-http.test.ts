// MCP over streamable HTTP, driven by the official SDK client against the real service (engine, SQLite,
// workers, /mcp router) on an ephemeral port: tools/list, calls billed to a key, errors, progress,
// cancellation, the tasks API, artifacts as resources, and the HTTP guards (auth, Host, Origin, size).
import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskRow } from '../../src/store/port.js';
import dnsLookup from '../../tools/dns.lookup.js';
import { startKnot, type KnotServer } from '../support/knot.js';
import { startMcpService, type McpTestService } from '../support/mcp-service.js';
import { mcpTestTools, pngOfSize } from '../support/mcp-test-tools.js';
import { testTools } from '../support/test-tools.js';

let knot: KnotServer;
let svc: McpTestService;
let key: string;
let keyId: string;
let client: Client;

beforeAll(async () => {
  knot = await startKnot([{ origin: 'example.test', records: ['@ 300 IN A 192.0.2.10', '@ 300 IN MX 10 mail', 'mail 300 IN A 192.0.2.25'] }]);
  svc = await startMcpService({ DNS_SERVERS: knot.server, MCP_INLINE_IMAGE_MAX_BYTES: '2000' }, { tools: [...testTools, ...mcpTestTools, dnsLookup] });
  ({ key, id: keyId } = await svc.createKey(1));
  client = await svc.connect({ key });
});

afterAll(async () => {
  await svc?.close();
  await knot?.stop();
});

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

const text = (r: CallToolResult) =>
  r.content
    .filter((c) => c.type === 'text')
    .map((c) => (c as { text: string }).text)
    .join('\n');

async function balanceMicros(id: string): Promise<number> {
  return (await svc.rt.store.findKey(id))!.balanceMicros;
}

describe('tools/list', () => {
  it('lists every tool with underscore names, the SPEC name, schemas, annotations and the price', async () => {
    const { tools } = await client.listTools();
    const dns = tools.find((t) => t.name === 'dns_lookup')!;
    expect(dns.title).toBe(dnsLookup.title);
    expect(dns._meta).toEqual({ 'agent-utility/tool': 'dns.lookup' });
    expect(dns.description).toMatch(/Price: 0\.001 USD per call\.$/);
    expect(dns.inputSchema).toMatchObject({ type: 'object', required: ['domain'] });
    expect(dns.outputSchema).toMatchObject({ type: 'object' });
    // openWorldHint true is the spec's default, so it is not sent, nor idempotentHint beside readOnlyHint: true.
    expect(dns.annotations).toEqual({ readOnlyHint: true });
    expect(dns.execution).toEqual({ taskSupport: 'optional' });
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['test_echo', 'test_sleep', 'test_progress', 'dns_lookup']));
  });
});

describe('tools/call', () => {
  it('runs dns_lookup against Knot, returns structuredContent and the same JSON as text, and charges the key', async () => {
    const before = await balanceMicros(keyId);
    const result = (await client.callTool({ name: 'dns_lookup', arguments: { domain: 'example.test', record_type: 'MX' } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      domain: 'example.test',
      exists: true,
      records: { MX: [{ priority: 10, exchange: 'mail.example.test' }] },
    });
    expect(JSON.parse(text(result))).toEqual(result.structuredContent);
    const taskId = (result._meta as Record<string, string>)['agent-utility/task_id']!;
    const row = await svc.rt.store.getTask(taskId);
    expect(row).toMatchObject({ tool: 'dns.lookup', status: 'complete', payer: { kind: 'key', id: keyId }, priceMicros: 1000 });
    expect(await balanceMicros(keyId)).toBe(before - 1000);
  });

  it('answers invalid input with isError naming the field, without charging', async () => {
    const before = await balanceMicros(keyId);
    const result = (await client.callTool({ name: 'dns_lookup', arguments: { record_type: 'MX' } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^domain: is required/);
    expect(await balanceMicros(keyId)).toBe(before);
  });

  it('reports a failed task as isError with its sentence, and refunds it', async () => {
    const before = await balanceMicros(keyId);
    const result = (await client.callTool({ name: 'test_fail', arguments: { kind: 'permanent' } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('failed as asked (permanent)');
    expect(await balanceMicros(keyId)).toBe(before);
  });

  it('rejects an unknown tool with a JSON-RPC error that lists the tools', async () => {
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool "no_such_tool".*dns_lookup/);
  });

  it('says so when the key has too few credits', async () => {
    const poor = await svc.createKey(0.005);
    const c = await svc.connect({ key: poor.key });
    const result = (await c.callTool({ name: 'test_echo', arguments: { value: 'x' } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/Not enough credits: test\.echo costs 0\.01 USD/);
  });

  it('sends notifications/progress when the client gives a progress token', async () => {
    const seen: { progress: number; total?: number; message?: string }[] = [];
    const result = (await client.callTool({ name: 'test_progress', arguments: { steps: 3, ms: 30 } }, CallToolResultSchema, {
      onprogress: (p) => seen.push(p),
    })) as CallToolResult;
    expect(result.structuredContent).toEqual({ steps: 3 });
    expect(seen.map((p) => p.progress)).toEqual([0, 1, 2, 3]);
    expect(seen[0]!.message).toMatch(/started/);
    expect(seen.at(-1)).toMatchObject({ progress: 3, total: 3, message: 'step 3 of 3' });
  });

  it('cancels the engine task when the client cancels the request (notifications/cancelled)', async () => {
    const ac = new AbortController();
    const call = client.callTool({ name: 'test_sleep', arguments: { ms: 1400, key: 'mcp-http-cancel' } }, CallToolResultSchema, { signal: ac.signal });
    const task = await waitForTask((t) => t.tool === 'test.sleep' && (t.input as { key?: string }).key === 'mcp-http-cancel' && t.status === 'running');
    ac.abort('changed my mind');
    await expect(call).rejects.toThrow();
    const settled = await svc.rt.engine.waitFor(task.id, 5_000);
    expect(settled?.status).toBe('cancelled');
  });
});

describe('MCP tasks', () => {
  it('runs a call as a task with callToolStream and returns the validated result', async () => {
    await client.listTools();
    const kinds: string[] = [];
    let result: CallToolResult | undefined;
    let taskId: string | undefined;
    for await (const message of client.experimental.tasks.callToolStream({ name: 'test_echo', arguments: { value: 'as a task' } })) {
      kinds.push(message.type);
      if (message.type === 'taskCreated') taskId = message.task.taskId;
      if (message.type === 'result') result = message.result as CallToolResult;
      if (message.type === 'error') throw message.error;
    }
    expect(kinds[0]).toBe('taskCreated');
    expect(kinds.at(-1)).toBe('result');
    expect(result?.structuredContent).toEqual({ value: 'as a task' });
    expect(taskId).toMatch(/^task_/);
    // The MCP task is the engine task: same id, billed to the key.
    expect(await svc.rt.store.getTask(taskId!)).toMatchObject({ status: 'complete', payer: { kind: 'key', id: keyId } });
    const got = await client.experimental.tasks.getTask(taskId!);
    expect(got).toMatchObject({ taskId, status: 'completed' });
  });

  it('binds tasks to the caller: another key cannot see, read or cancel them', async () => {
    const { task } = await client.request(
      { method: 'tools/call', params: { name: 'test_sleep', arguments: { ms: 300, key: 'mcp-http-owner' }, task: {} } },
      CreateTaskResultSchema,
    );
    expect(task.pollInterval).toBeLessThanOrEqual(500);
    const other = await svc.connect({ key: (await svc.createKey(1)).key });
    await expect(other.experimental.tasks.getTask(task.taskId)).rejects.toThrow(/not found/i);
    await expect(other.experimental.tasks.cancelTask(task.taskId)).rejects.toThrow(/not found/i);
    const theirs = await other.experimental.tasks.listTasks();
    expect(theirs.tasks.map((t) => t.taskId)).not.toContain(task.taskId);
    const mine = await client.experimental.tasks.listTasks();
    expect(mine.tasks.map((t) => t.taskId)).toContain(task.taskId);
    // tasks/result blocks until the task settles, from a later, separate request.
    const result = (await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)) as CallToolResult;
    expect(result.structuredContent).toEqual({ slept: 300 });
  });

  it('tasks/cancel reaches the worker', async () => {
    const { task } = await client.request(
      { method: 'tools/call', params: { name: 'test_sleep', arguments: { ms: 1400, key: 'mcp-http-task-cancel' }, task: {} } },
      CreateTaskResultSchema,
    );
    await waitForTask((t) => t.id === task.taskId && t.status === 'running');
    const cancelled = await client.experimental.tasks.cancelTask(task.taskId);
    expect(cancelled.status).toBe('cancelled');
    expect((await svc.rt.store.getTask(task.taskId))?.status).toBe('cancelled');
  });
});

describe('artifacts', () => {
  it('returns a resource_link and an inline image under the cap, readable with resources/read', async () => {
    const result = (await client.callTool({ name: 'test_artifact', arguments: { bytes: 500 } })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const link = result.content.find((c) => c.type === 'resource_link') as { uri: string; mimeType: string; name: string };
    expect(link.uri).toMatch(/^agent-utility:\/\/tasks\/task_[^/]+\/artifact$/);
    expect(link.mimeType).toBe('image/png');
    const image = result.content.find((c) => c.type === 'image') as { data: string; mimeType: string };
    expect(Buffer.from(image.data, 'base64')).toEqual(pngOfSize(500));
    const read = await client.readResource({ uri: link.uri });
    expect(read.contents[0]).toMatchObject({ uri: link.uri, mimeType: 'image/png' });
    expect(Buffer.from((read.contents[0] as { blob: string }).blob, 'base64')).toEqual(pngOfSize(500));
    const listed = await client.listResources();
    expect(listed.resources.map((r) => r.uri)).toContain(link.uri);
  });

  it('links but does not inline an image above MCP_INLINE_IMAGE_MAX_BYTES, nor a PDF', async () => {
    const big = (await client.callTool({ name: 'test_artifact', arguments: { bytes: 5000 } })) as CallToolResult;
    expect(big.content.map((c) => c.type)).toEqual(['text', 'resource_link']);
    const pdf = (await client.callTool({ name: 'test_artifact', arguments: { bytes: 10, kind: 'pdf' } })) as CallToolResult;
    expect(pdf.content.map((c) => c.type)).toEqual(['text', 'resource_link']);
  });

  it("does not let another caller read someone's artifact", async () => {
    const result = (await client.callTool({ name: 'test_artifact', arguments: { bytes: 100 } })) as CallToolResult;
    const link = result.content.find((c) => c.type === 'resource_link') as { uri: string };
    const other = await svc.connect({ key: (await svc.createKey(1)).key });
    await expect(other.readResource({ uri: link.uri })).rejects.toThrow(/Resource not found/);
  });
});

describe('HTTP guards', () => {
  const post = (headers: Record<string, string>, body: unknown = initialize) =>
    fetch(svc.mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });

  it('needs an API key: 401 with WWW-Authenticate, through the SDK client too', async () => {
    const res = await post({});
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await res.json()).error.message).toMatch(/needs an API key/);
    expect((await post({ authorization: 'Bearer sk_live_unknownunknownunknownunknown' })).status).toBe(401);
    expect((await post({ authorization: 'Bearer pt_sometoken' })).status).toBe(401);
    const anonymous = new Client({ name: 'anon', version: '1' });
    await expect(anonymous.connect(new StreamableHTTPClientTransport(new URL(svc.mcpUrl)))).rejects.toThrow();
  });

  it('refuses a foreign Origin and a foreign Host with 403', async () => {
    const res = await post({ authorization: `Bearer ${key}`, origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect((await res.json()).error.message).toMatch(/Origin https:\/\/evil\.example/);
    expect((await post({ authorization: `Bearer ${key}`, origin: svc.url })).status).toBe(200);
    const host = await rawPost({ host: 'rebind.example', authorization: `Bearer ${key}` });
    expect(host.status).toBe(403);
  });

  it('answers a body that is not JSON with a JSON-RPC parse error', async () => {
    for (const body of ['{"jsonrpc": "2.0", "id": 1,', '']) {
      const res = await fetch(svc.mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` },
        body,
      });
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe(-32700);
    }
  });

  it('answers GET with 405 and an oversized body with 413', async () => {
    const get = await fetch(svc.mcpUrl, { headers: { authorization: `Bearer ${key}`, accept: 'text/event-stream' } });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const big = await post({ authorization: `Bearer ${key}` }, { ...initialize, params: { ...initialize.params, pad: 'x'.repeat(3 * 1024 * 1024) } });
    expect(big.status).toBe(413);
  });
});

describe('MCP_AUTH=localhost-off', () => {
  it('lets loopback callers in without a key, free and recorded under a local principal', async () => {
    const open = await startMcpService({ MCP_AUTH: 'localhost-off' }, { tools: testTools });
    try {
      const c = await open.connect();
      const result = (await c.callTool({ name: 'test_echo', arguments: { value: 'free' } })) as CallToolResult;
      const taskId = (result._meta as Record<string, string>)['agent-utility/task_id']!;
      expect(await open.rt.store.getTask(taskId)).toMatchObject({ payer: { kind: 'local', id: 'http-localhost' }, priceMicros: 0 });
    } finally {
      await open.close();
    }
  });
});

async function waitForTask(match: (t: TaskRow) => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // Listings never read inputs, so each listed task is read whole.
    const listed = await svc.rt.store.listTasks({ payer: { kind: 'key', id: keyId }, limit: 50 });
    const rows = (await Promise.all(listed.map((t) => svc.rt.store.getTask(t.id)))).filter((t): t is TaskRow => t !== null);
    const hit = rows.find(match);
    if (hit) return hit;
    if (Date.now() > deadline) throw new Error('task did not appear');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** fetch() forbids setting Host; node:http does not. */
async function rawPost(headers: Record<string, string>): Promise<{ status: number }> {
  const url = new URL(svc.mcpUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0 });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(initialize));
  });
}
