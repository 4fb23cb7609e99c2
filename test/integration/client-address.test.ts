// A client cannot choose its own address with X-Forwarded-For: behind one trusted proxy (TRUST_PROXY=1,
// played here by the test itself on loopback) only the entry that proxy appended counts. So a spoofed
// "127.0.0.1" gets no free MCP access under MCP_AUTH=localhost-off, and a fresh spoofed address per request
// does not escape the per-IP limits of REST /v1 (discovery included), /mcp and the lead service. Also: each
// tools/call of a JSON-RPC batch counts against the key's rate limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api as leadsApi, startLeadsForTest, type LeadsUnderTest } from '../support/leads-harness.js';
import { startMcpService, type McpTestService } from '../support/mcp-service.js';
import { api } from '../support/service.js';
import { testTools } from '../support/test-tools.js';

const LIMIT = 3;
let svc: McpTestService;
let leads: LeadsUnderTest;

beforeAll(async () => {
  svc = await startMcpService(
    { TRUST_PROXY: '1', MCP_AUTH: 'localhost-off', RATE_LIMIT_PER_IP: String(LIMIT), RATE_LIMIT_PER_KEY: String(LIMIT) },
    { tools: testTools },
  );
  leads = await startLeadsForTest({
    env: { TRUST_PROXY: '1' },
    overrides: { registrationLimits: { perIp: 2, perEmail: 5, windowMs: 3_600_000, linkTtlMs: 3_600_000 } },
  });
});

afterAll(async () => {
  await svc?.close();
  await leads?.close();
});

/** What a client behind our one proxy sends: its own (spoofed) entry, then the proxy appends the real one. */
const forwarded = (spoofed: string, real: string) => ({ 'x-forwarded-for': `${spoofed}, ${real}` });

async function mcp(body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(svc.mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const listTools = (id = 1) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });
const callTool = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'test_echo', arguments: { message: 'hi' } } });

describe('MCP_AUTH=localhost-off behind a proxy', () => {
  it('serves a local caller free', async () => {
    expect((await mcp(listTools())).status).toBe(200);
  });

  it('refuses a remote caller who writes 127.0.0.1 into X-Forwarded-For (401)', async () => {
    const r = await mcp(listTools(), forwarded('127.0.0.1', '203.0.113.50'));
    expect(r.status).toBe(401);
    expect(r.text).toContain('needs an API key');
  });
});

describe('per-IP limits cannot be escaped with a fresh spoofed address per request', () => {
  it('REST /v1 counts the address the proxy saw', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) {
      statuses.push((await api(svc.url, 'GET', '/v1/tasks/task_nope', { headers: forwarded(`198.51.100.${i}`, '203.0.113.1') })).status);
    }
    expect(statuses.slice(0, LIMIT)).not.toContain(429);
    expect(statuses[LIMIT]).toBe(429);
  });

  it('MCP counts the address the proxy saw', async () => {
    const { key } = await svc.createKey(1);
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) {
      statuses.push((await mcp(listTools(i), { authorization: `Bearer ${key}`, ...forwarded(`198.51.100.${i}`, '203.0.113.2') })).status);
    }
    expect(statuses.slice(0, LIMIT)).toEqual([200, 200, 200]);
    expect(statuses[LIMIT]).toBe(429);
  });

  it('the lead service counts registrations by the address the proxy saw', async () => {
    const statuses: number[] = [];
    for (const n of [1, 2, 3]) {
      const r = await leadsApi(leads.url, 'POST', '/v1/register', {
        body: { email: `spoof${n}@agent-utility.test` },
        headers: forwarded(`198.51.100.${n}`, '203.0.113.3'),
      });
      statuses.push(r.status);
    }
    expect(statuses).toEqual([202, 202, 429]);
  });
});

describe('GET /v1/tools is rate limited per address like the rest of /v1', () => {
  it('answers 429 once the address is over the limit, with RateLimit headers before', async () => {
    const headers = forwarded('203.0.113.4', '203.0.113.4');
    const first = await api(svc.url, 'GET', '/v1/tools', { headers });
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-limit')).toBe(String(LIMIT));
    expect(first.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 1));
    await api(svc.url, 'GET', '/v1/tools/test.echo', { headers });
    await api(svc.url, 'GET', '/v1/tools', { headers });
    const limited = await api(svc.url, 'GET', '/v1/tools', { headers });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('a JSON-RPC batch on /mcp', () => {
  it('counts each tools/call against the key rate limit', async () => {
    const { key } = await svc.createKey(1);
    const auth = { authorization: `Bearer ${key}` };
    // Separate proxy-seen addresses keep the per-IP limit (also 3) out of the way.
    const two = await mcp([callTool(1), callTool(2)], { ...auth, ...forwarded('x', '203.0.113.5') });
    expect(two.status).not.toBe(429);
    expect(two.headers.get('ratelimit-remaining')).toBe(String(LIMIT - 2));
    const again = await mcp([callTool(3), callTool(4)], { ...auth, ...forwarded('x', '203.0.113.6') });
    expect(again.status).toBe(429);
  });
});
