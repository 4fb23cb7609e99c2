// Deeply nested JSON input through every front door (REST with and without Idempotency-Key, MCP,
// A2A): refused with 400 / an invalid-input answer naming the problem, never a 500 or a crash.
// Also: idempotency hashes the validated input, not the raw body.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_INPUT_DEPTH } from '../../src/engine/input-depth.js';
import { api } from '../support/service.js';
import { startMcpService, type McpTestService } from '../support/mcp-service.js';
import { testTools } from '../support/test-tools.js';

let svc: McpTestService;
let key: string;

beforeAll(async () => {
  svc = await startMcpService({ RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_KEY: '0' }, { tools: testTools });
  ({ key } = await svc.createKey(1));
});
afterAll(async () => svc?.close());

/** `levels` arrays nested inside each other, as text (JSON.stringify would do, but this is cheaper). */
const nestedText = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;

describe('REST', () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, rawBody: body, headers: { 'content-type': 'application/json', ...headers } });

  for (const withKey of [false, true]) {
    it(`refuses a 10,000-deep body with 400 INPUT_TOO_DEEP${withKey ? ' (with Idempotency-Key)' : ''}`, async () => {
      const res = await post(`{"value":"x","extra":${nestedText(10_000)}}`, withKey ? { 'Idempotency-Key': `deep-${randomUUID()}` } : {});
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'INPUT_TOO_DEEP', field: 'extra' });
      expect(res.body.error).toMatch(new RegExp(`nested deeper than ${MAX_INPUT_DEPTH} levels`));
    });
  }

  it(`accepts input nested exactly ${MAX_INPUT_DEPTH} levels deep`, async () => {
    // The body object is level 1, so the array starts at level 2.
    const res = await post(`{"value":"x","extra":${nestedText(MAX_INPUT_DEPTH - 1)}}`, { 'Idempotency-Key': `edge-${randomUUID()}` });
    expect(res.status).toBe(202);
    const over = await post(`{"value":"x","extra":${nestedText(MAX_INPUT_DEPTH)}}`);
    expect(over.status).toBe(400);
  });

  it('hashes the validated input: fields the tool ignores do not make a retry a different request', async () => {
    const k = `strip-${randomUUID()}`;
    const first = await post(JSON.stringify({ value: 'same' }), { 'Idempotency-Key': k });
    const again = await post(JSON.stringify({ extra: 'ignored', value: 'same' }), { 'Idempotency-Key': k });
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.task_id).toBe(first.body.task_id);
    const different = await post(JSON.stringify({ value: 'other' }), { 'Idempotency-Key': k });
    expect(different.status).toBe(422);
    expect(different.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});

describe('MCP', () => {
  it('answers a 10,000-deep tools/call with an invalid-input result, not an internal error', async () => {
    // Raw JSON-RPC: the SDK client itself cannot serialize input this deep.
    const res = await fetch(`${svc.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` },
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"test_echo","arguments":{"value":"x","extra":${nestedText(10_000)}}}}`,
    });
    expect(res.status).toBeLessThan(500);
    const text = await res.text();
    expect(text).toMatch(new RegExp(`nested deeper than ${MAX_INPUT_DEPTH} levels`));
    expect(text).not.toMatch(/-32603/);
  });
});

describe('A2A', () => {
  it('answers a 10,000-deep message with an invalid-params error, not an internal error', async () => {
    const res = await fetch(`${svc.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"${randomUUID()}","role":"user","parts":[{"kind":"data","data":{"tool":"test.echo","input":{"value":"x","extra":${nestedText(10_000)}}}}]}}}`,
    });
    expect(res.status).toBeLessThan(500);
    const body = await res.json();
    expect(JSON.stringify(body)).toMatch(new RegExp(`nested deeper than ${MAX_INPUT_DEPTH} levels`));
    expect(body.error?.code).not.toBe(-32603);
  });
});
