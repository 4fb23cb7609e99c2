// A tool's precheck (403 BLOCKED_TARGET for a private target) tells something about the world, so it
// answers only callers who could pay (G11): a key without the price in credit gets 402, a revoked key 401,
// a caller with no credential the 402 asking for payment, on REST, batches and MCP alike; a key with
// credit still gets the 403 before anything is charged. No request leaves the machine: the target is a
// literal private address the precheck refuses without connecting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import urlStatus from '../../tools/url.status.js';
import { startMcpService, type McpTestService } from '../support/mcp-service.js';
import { testTools } from '../support/test-tools.js';

const json = { 'content-type': 'application/json' };
const privateTarget = { url: 'http://10.0.0.1/' };

let svc: McpTestService;
beforeAll(async () => {
  svc = await startMcpService({ RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_KEY: '0' }, { tools: [...testTools, urlStatus] });
});
afterAll(async () => {
  await svc?.close();
});

const create = (headers: Record<string, string>) =>
  fetch(`${svc.url}/v1/tools/url.status/tasks`, { method: 'POST', headers: { ...json, ...headers }, body: JSON.stringify(privateTarget) });
const batch = (key: string) =>
  fetch(`${svc.url}/v1/tools/url.status/batches`, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${key}` },
    body: JSON.stringify({ inputs: [privateTarget] }),
  });
const mcpCall = async (key: string) => {
  const res = await fetch(`${svc.url}/mcp`, {
    method: 'POST',
    headers: { ...json, accept: 'application/json, text/event-stream', authorization: `Bearer ${key}`, 'mcp-protocol-version': '2025-06-18' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'url_status', arguments: privateTarget } }),
  });
  // One JSON-RPC answer, as JSON or as one server-sent event.
  return res.text();
};

describe('the private-address precheck', () => {
  it('answers a key with no credit 402, not 403', async () => {
    const { key } = await svc.createKey(0);
    const res = await create({ authorization: `Bearer ${key}` });
    expect(res.status).toBe(402);
    expect((await res.json()).code).toBe('INSUFFICIENT_CREDITS');
    const b = await batch(key);
    expect(b.status).toBe(402);
    expect((await b.json()).code).toBe('INSUFFICIENT_CREDITS');
    const viaMcp = await mcpCall(key);
    expect(viaMcp).toContain('Not enough credits');
    expect(viaMcp).not.toContain('Blocked target');
  });

  it('answers a caller with no credential 402 asking for payment', async () => {
    const res = await create({});
    expect(res.status).toBe(402);
    expect((await res.json()).code).toBe('PAYMENT_REQUIRED');
  });

  it('answers a revoked key 401', async () => {
    const { key, id } = await svc.createKey(1);
    await svc.rt.store.revokeKey(id, Date.now());
    expect((await create({ authorization: `Bearer ${key}` })).status).toBe(401);
  });

  it('still refuses the target (403) for a key that can pay, charging nothing', async () => {
    const { key, id } = await svc.createKey(1);
    const res = await create({ authorization: `Bearer ${key}` });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 'BLOCKED_TARGET', field: 'url' });
    expect(await mcpCall(key)).toContain('Blocked target');
    expect((await svc.rt.store.findKey(id))?.balanceMicros).toBe(1_000_000);
  });
});
