// Caller-named keys never reach Object.prototype (issue #26): the audit's CSV batch with a `__proto__.free`
// header used to write Object.prototype.free for the whole process, so every later task creation, for
// every key and on every front door, failed with "free: is not a known field". Each door now refuses
// __proto__, prototype and constructor as keys with one sentence naming the field, and nothing leaks.
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_KINDS, connectEraClient } from '../support/mcp-era-clients.js';
import { startLeadsForTest, type LeadsUnderTest } from '../support/leads-harness.js';
import { startMcpService, type McpTestService } from '../support/mcp-service.js';
import { api } from '../support/service.js';
import { testTools } from '../support/test-tools.js';

const PROBES = ['free', 'x', 'polluted', 'user_agent'];
const RESERVED = /is a reserved name; __proto__, prototype and constructor cannot name a field/;

function prototypeIsClean(): void {
  const probe = {} as Record<string, unknown>;
  for (const name of PROBES) expect(probe[name], `Object.prototype.${name}`).toBeUndefined();
}

let svc: McpTestService;
let attacker: string;
let victim: string;

beforeAll(async () => {
  svc = await startMcpService({}, { tools: testTools });
  ({ key: attacker } = await svc.createKey(1));
  ({ key: victim } = await svc.createKey(1));
});
afterAll(async () => {
  await svc?.close();
});
afterEach(() => {
  // A failing run must not poison the other tests of this worker.
  for (const name of PROBES) delete (Object.prototype as Record<string, unknown>)[name];
});

async function post(path: string, contentType: string, body: string, token?: string) {
  const res = await fetch(`${svc.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function victimCanStillCreateTasks(): Promise<void> {
  const created = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: victim, body: { value: 'after' } });
  expect(created.status, JSON.stringify(created.body)).toBe(202);
}

describe('CSV batch headers', () => {
  it("refuses the audit's __proto__.free header, and the next caller's task creation still works", async () => {
    // Without a credential the body is not even read (402 from the headers); with a key it is refused.
    const anonymous = await post('/v1/tools/test.echo/batches', 'text/csv', '__proto__.free\n1\n');
    expect(anonymous.status).toBe(402);
    const r = await post('/v1/tools/test.echo/batches', 'text/csv', '__proto__.free\n1\n', attacker);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'INVALID_INPUT', field: '__proto__.free' });
    expect(r.body.error).toMatch(RESERVED);
    expect(({} as Record<string, unknown>).free).toBeUndefined();
    await victimCanStillCreateTasks();
  });

  it.each([
    ['a nested __proto__', 'value,a.__proto__.x\nv,1\n', 'a.__proto__.x'],
    ['a quoted header', 'value,"__proto__.x"\nv,1\n', '__proto__.x'],
    ['spaces around the name', 'value, __proto__ .x\nv,1\n', '__proto__ .x'],
    ['constructor.prototype', 'value,constructor.prototype.polluted\nv,1\n', 'constructor.prototype.polluted'],
    ['a bare __proto__ column', 'value,__proto__\nv,1\n', '__proto__'],
  ])('refuses %s with a key, naming the column', async (_name, csv, field) => {
    const r = await post('/v1/tools/test.echo/batches', 'text/csv', csv, attacker);
    expect(r.status).toBe(400);
    expect(r.body.field).toBe(field);
    expect(r.body.error).toMatch(RESERVED);
    prototypeIsClean();
    await victimCanStillCreateTasks();
  });
});

describe('JSON and NDJSON bodies', () => {
  it('a task creation with a __proto__ key is a 400 naming it (fast lane and Express alike)', async () => {
    const body = '{"value":"v","__proto__":{"free":true}}';
    const viaKey = await post('/v1/tools/test.echo/tasks', 'application/json', body, attacker);
    expect(viaKey.status).toBe(400);
    expect(viaKey.body).toMatchObject({ code: 'INVALID_INPUT', field: '__proto__' });
    expect(viaKey.body.error).toMatch(RESERVED);
    // No credential: the Express route (the fast lane only takes keyed creations) answers the same.
    const anonymous = await post('/v1/tools/test.echo/tasks', 'application/json', body);
    expect(anonymous.status).toBe(400);
    expect(anonymous.body.error).toBe(viaKey.body.error);
    prototypeIsClean();
  });

  it('names a reserved key deep in the input by its path', async () => {
    const r = await post('/v1/tools/test.echo/tasks', 'application/json', '{"value":"v","extra":[{"a":{"constructor":{"prototype":1}}}]}', attacker);
    expect(r.status).toBe(400);
    expect(r.body.field).toBe('extra.0.a.constructor');
  });

  it('NDJSON and JSON batches list the row and the field', async () => {
    const ndjson = await post('/v1/tools/test.echo/batches', 'application/x-ndjson', '{"value":"a"}\n{"value":"b","__proto__":{"free":1}}\n', attacker);
    expect(ndjson.status).toBe(400);
    expect(ndjson.body.code).toBe('BATCH_INVALID');
    expect(ndjson.body.errors).toEqual([{ row: 2, field: '__proto__', problem: expect.stringMatching(RESERVED) }]);
    const json = await post('/v1/tools/test.echo/batches', 'application/json', '{"inputs":[{"value":"a","prototype":{"free":1}}]}', attacker);
    expect(json.status).toBe(400);
    expect(json.body.errors).toEqual([{ row: 1, field: 'prototype', problem: expect.stringMatching(RESERVED) }]);
    prototypeIsClean();
    await victimCanStillCreateTasks();
  });
});

describe('MCP arguments and A2A data parts', () => {
  it('MCP tools/call answers the same sentence', async () => {
    const res = await fetch(`${svc.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${attacker}` },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"test_echo","arguments":{"value":"v","__proto__":{"free":true}}}}',
    });
    const text = await res.text();
    expect(text).toMatch(/__proto__: is a reserved name; __proto__, prototype and constructor cannot name a field/);
    prototypeIsClean();
  });

  it.each(CLIENT_KINDS)('the %s MCP client gets the same sentence for a __proto__ argument', async (kind) => {
    const client = await connectEraClient(kind, { http: `${svc.url}/mcp`, headers: { authorization: `Bearer ${attacker}` } });
    try {
      const outcome = await client.callTool('test_echo', JSON.parse('{"value":"v","__proto__":{"free":true}}') as Record<string, unknown>).then(
        (r) => JSON.stringify(r),
        (err: Error) => err.message,
      );
      expect(outcome).toMatch(/__proto__: is a reserved name; __proto__, prototype and constructor cannot name a field/);
    } finally {
      await client.close();
    }
    prototypeIsClean();
  });

  it('A2A message/send answers the same sentence', async () => {
    const res = await fetch(`${svc.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${attacker}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'message/send',
        params: { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'data', data: { tool: 'test.echo', input: 'INPUT' } }] } },
      }).replace('"INPUT"', '{"value":"v","__proto__":{"free":true}}'),
    });
    const body = (await res.json()) as { error?: { message: string } };
    expect(body.error?.message).toMatch(/__proto__: is a reserved name; __proto__, prototype and constructor cannot name a field/);
    prototypeIsClean();
  });
});

describe('the lead service', () => {
  let leads: LeadsUnderTest;
  beforeAll(async () => {
    leads = await startLeadsForTest();
  });
  afterAll(async () => {
    await leads?.close();
  });

  it('refuses a reserved key in a JSON body with the same sentence', async () => {
    const res = await fetch(`${leads.url}/v1/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email":"someone@example.com","__proto__":{"polluted":1}}',
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ code: 'INVALID_INPUT', field: '__proto__' });
    expect(body.error).toMatch(RESERVED);
    prototypeIsClean();
  });
});
