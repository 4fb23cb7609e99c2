// Fuzzed bodies through the real server (REST task creation, CSV/NDJSON/JSON batches, MCP tools/call, A2A
// message/send): no answer is a 5xx, Object.prototype gains nothing, and after every run another key's
// ordinary task creation still answers 202. The parsers themselves get 10,000+ bodies in
// test/unit/fuzz-parsers.test.ts; this is the smaller end-to-end share.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpService, type McpTestService } from '../support/mcp-service.js';
import { api } from '../support/service.js';
import { testTools } from '../support/test-tools.js';

const PROTOTYPE_KEYS = Reflect.ownKeys(Object.prototype);
const TRICKY = ['__proto__', 'prototype', 'constructor', 'toString', 'free', 'value'];
const key = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...TRICKY) }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) });
const value = fc.letrec((tie) => ({
  any: fc.oneof({ depthSize: 'small' }, fc.string({ maxLength: 8 }), fc.integer(), fc.constant(null), tie('obj')),
  obj: fc.dictionary(key, tie('any'), { maxKeys: 3 }),
})).any;
const object = fc.dictionary(key, value, { maxKeys: 4 });
const path = fc.array(key, { minLength: 1, maxLength: 3 }).map((p) => p.join('.'));

let svc: McpTestService;
let attacker: string;
let victim: string;

beforeAll(async () => {
  // Limits off: 300 fuzzed requests from one address would spend its one budget across /v1, /mcp and /a2a.
  svc = await startMcpService({ RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_KEY: '0' }, { tools: testTools });
  ({ key: attacker } = await svc.createKey(10_000));
  ({ key: victim } = await svc.createKey(100));
});
afterAll(async () => {
  await svc?.close();
});

async function send(path: string, contentType: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await fetch(`${svc.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType, authorization: `Bearer ${attacker}`, accept: 'application/json, text/event-stream', ...headers },
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

async function stillFine(status: number): Promise<void> {
  expect(status).toBeLessThan(500);
  expect(Reflect.ownKeys(Object.prototype)).toEqual(PROTOTYPE_KEYS);
  expect(({} as Record<string, unknown>).free).toBeUndefined();
}

describe('fuzzed bodies through the HTTP server', () => {
  it('task creation, batches, MCP and A2A (300 requests)', async () => {
    const body = fc.oneof(
      object.map((o) => ({ path: '/v1/tools/test.echo/tasks', type: 'application/json', text: JSON.stringify(o) })),
      fc
        .tuple(fc.array(path, { minLength: 1, maxLength: 3 }), fc.array(fc.string({ maxLength: 5 }), { maxLength: 4 }))
        .map(([h, cells]) => ({ path: '/v1/tools/test.echo/batches', type: 'text/csv', text: `${h.join(',')}\n${cells.join(',')}\n` })),
      fc.array(object, { minLength: 1, maxLength: 3 }).map((l) => ({
        path: '/v1/tools/test.echo/batches',
        type: 'application/x-ndjson',
        text: l.map((o) => JSON.stringify(o)).join('\n'),
      })),
      fc
        .array(object, { minLength: 1, maxLength: 3 })
        .map((inputs) => ({ path: '/v1/tools/test.echo/batches', type: 'application/json', text: JSON.stringify({ inputs }) })),
      object.map((args) => ({
        path: '/mcp',
        type: 'application/json',
        text: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'test_echo', arguments: args } }),
      })),
      object.map((input) => ({
        path: '/a2a',
        type: 'application/json',
        text: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'message/send',
          params: { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'data', data: { tool: 'test.echo', input } }] } },
        }),
      })),
    );
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        await stillFine(await send(b.path, b.type, b.text));
      }),
      { numRuns: 300 },
    );
    const after = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: victim, body: { value: 'after the fuzz' } });
    expect(after.status).toBe(202);
  });
});
