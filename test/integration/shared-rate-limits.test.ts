// Rate limits shared across API nodes and front doors: two API nodes (two runtimes and HTTP servers, as
// two processes would be) on one PostgreSQL schema count one budget per key and one per client address,
// whichever node and whichever door (/v1, /mcp, /a2a) a request reaches. On SQLite (one API node) the
// doors of the node share the key's budget.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestLimits } from '../../src/web/request-limits.js';
import { startMcpService, type McpTestService } from '../support/mcp-service.js';
import { createTestSchema, type TestSchema } from '../support/postgres.js';
import { testTools } from '../support/test-tools.js';

const json = { 'content-type': 'application/json' };

const createTask = (node: McpTestService, key: string) =>
  fetch(`${node.url}/v1/tools/test.echo/tasks`, { method: 'POST', headers: { ...json, authorization: `Bearer ${key}` }, body: JSON.stringify({ value: 'x' }) });
const mcpCall = (node: McpTestService, key: string) =>
  fetch(`${node.url}/mcp`, {
    method: 'POST',
    headers: { ...json, accept: 'application/json, text/event-stream', authorization: `Bearer ${key}`, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'test_echo', arguments: { value: 'x' } } }),
  });
const a2aCall = (node: McpTestService, key: string) =>
  fetch(`${node.url}/a2a`, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${key}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'task_none' } }),
  });
const remaining = (res: Response) => res.headers.get('ratelimit-remaining');

describe('two API nodes on one PostgreSQL database', () => {
  let schema: TestSchema;
  let a: McpTestService;
  let b: McpTestService;
  beforeAll(async () => {
    schema = await createTestSchema();
    const env = { ...schema.env, RATE_LIMIT_PER_KEY: '5', RATE_LIMIT_PER_IP: '0', RATE_LIMIT_WINDOW_S: '3600' };
    a = await startMcpService(env, { tools: testTools });
    b = await startMcpService(env, { tools: testTools });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await schema?.drop();
  });

  it('count one budget per key across the nodes and the doors', async () => {
    const { key } = await a.createKey(1);
    const first = await createTask(a, key);
    expect(first.status).toBe(202);
    expect(remaining(first)).toBe('4');
    const second = await createTask(b, key);
    expect(second.status).toBe(202);
    expect(remaining(second)).toBe('3');
    const viaMcp = await mcpCall(b, key);
    expect(viaMcp.status).toBe(200);
    expect(remaining(viaMcp)).toBe('2');
    const viaA2a = await a2aCall(a, key);
    expect(remaining(viaA2a)).toBe('1');
    expect((await createTask(b, key)).status).toBe(202);
    // The sixth request of the window, wherever it goes, is over the key's limit of 5.
    for (const over of [await createTask(a, key), await mcpCall(a, key), await a2aCall(b, key)]) {
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Another key has a budget of its own.
    const other = await b.createKey(1);
    expect((await createTask(a, other.key)).status).toBe(202);
  });
});

describe('two API nodes on one PostgreSQL database, per address', () => {
  let schema: TestSchema;
  let a: McpTestService;
  let b: McpTestService;
  beforeAll(async () => {
    schema = await createTestSchema();
    const env = { ...schema.env, RATE_LIMIT_PER_KEY: '0', RATE_LIMIT_PER_IP: '3', RATE_LIMIT_WINDOW_S: '3600' };
    a = await startMcpService(env, { tools: testTools });
    b = await startMcpService(env, { tools: testTools });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await schema?.drop();
  });

  it('count one budget per client address across the nodes', async () => {
    const answers = [];
    for (const node of [a, b, a, b, a]) answers.push(await fetch(`${node.url}/v1/tools`));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429, 429]);
    expect(answers.map(remaining)).toEqual(['2', '1', '0', '0', '0']);
  });
});

describe('a node that stops', () => {
  let schema: TestSchema;
  afterAll(async () => {
    await schema?.drop();
  });

  it("closes the limiters' own PostgreSQL pool: none of its connections is left open", async () => {
    schema = await createTestSchema();
    const node = await startMcpService({ ...schema.env, RATE_LIMIT_PER_KEY: '0', RATE_LIMIT_PER_IP: '50', RATE_LIMIT_WINDOW_S: '3600' }, { tools: testTools });
    const pool = requestLimits(node.rt).ownPool!;
    expect(pool).toBeDefined();
    expect((await fetch(`${node.url}/v1/tools`)).status).toBe(200);
    // The backend of one of the pool's connections (idle connections stay open for 30 s unless the pool ends).
    const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const pid = rows[0]!.pid;
    const open = async () =>
      (
        await schema.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1 AND application_name = 'agent-utility-limits'", [pid])
      )[0]!.n;
    expect(await open()).toBe(1);
    await node.close();
    expect(pool.ended).toBe(true);
    expect(pool.totalCount).toBe(0);
    // The server notices the client's Terminate message right away; wait for the backend to leave.
    let left = await open();
    for (let i = 0; i < 100 && left > 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      left = await open();
    }
    expect(left).toBe(0);
  });
});

describe('one API node on SQLite', () => {
  let node: McpTestService;
  beforeAll(async () => {
    node = await startMcpService({ RATE_LIMIT_PER_KEY: '2', RATE_LIMIT_PER_IP: '0', RATE_LIMIT_WINDOW_S: '3600' }, { tools: testTools });
  });
  afterAll(async () => {
    await node?.close();
  });

  it('gives a key one budget across /v1, /mcp and /a2a', async () => {
    const { key } = await node.createKey(1);
    expect((await createTask(node, key)).status).toBe(202);
    expect((await mcpCall(node, key)).status).toBe(200);
    expect((await a2aCall(node, key)).status).toBe(429);
    expect((await createTask(node, key)).status).toBe(429);
  });
});
