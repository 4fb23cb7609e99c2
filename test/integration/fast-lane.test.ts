// The task-creation fast lane (src/http/fast-lane.ts) answers every request it takes exactly as the Express
// route does: each case is sent once as the lane takes it and once in a form only Express takes (with a
// query string, which the route ignores), and the two answers must match, status, headers and body.
import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { creationTool, pollRequest } from '../../src/http/fast-lane.js';
import { startTestService, type TestService } from '../support/service.js';
import { testTools } from '../support/test-tools.js';

let svc: TestService;
let expressCalls: ReturnType<typeof vi.spyOn>;

beforeAll(async () => {
  svc = await startTestService({ RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_KEY: '3', BODY_LIMIT_BYTES: '4096' }, { tools: testTools });
  expressCalls = vi.spyOn(svc.server.http.app as unknown as { handle: () => void }, 'handle');
});
afterAll(async () => svc?.close());

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** POSTs a creation; `via` picks the path through the server. */
async function post(via: 'lane' | 'express', tool: string, token: string, rawBody: string, headers: Record<string, string> = {}): Promise<Answer> {
  const before = expressCalls.mock.calls.length;
  const res = await fetch(`${svc.url}/v1/tools/${tool}/tasks${via === 'lane' ? '' : '?via=express'}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: rawBody,
  });
  const text = await res.text();
  // The request went where it was meant to: Express saw it only when sent its way.
  expect(expressCalls.mock.calls.length - before).toBe(via === 'lane' ? 0 : 1);
  const kept: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (!['date', 'connection', 'keep-alive'].includes(k)) kept[k] = v;
  });
  return { status: res.status, headers: kept, body: JSON.parse(text) };
}

/** Task ids, poll tokens and the Location that names them differ per task; everything else must not. */
function comparable(a: Answer): Answer {
  const body = { ...(a.body as Record<string, unknown>) };
  for (const k of ['task_id', 'poll_token', 'poll_url']) if (k in body) body[k] = typeof body[k];
  const headers = { ...a.headers };
  if (headers.location) headers.location = 'set';
  if (headers['content-length'] && 'task_id' in body) delete headers['content-length'];
  return { ...a, headers, body };
}

async function bothWays(tool: string, rawBody: string, extra: (via: string) => Record<string, string> = () => ({})): Promise<[Answer, Answer]> {
  const { key: laneKey } = await svc.createKey(1);
  const { key: expressKey } = await svc.createKey(1);
  const lane = await post('lane', tool, laneKey, rawBody, extra('lane'));
  const express = await post('express', tool, expressKey, rawBody, extra('express'));
  return [lane, express];
}

describe('the creation fast lane answers as the Express route does', () => {
  it.each([
    ['a valid creation', 'test.echo', JSON.stringify({ value: 'hi' }), 202],
    ['input that fails validation', 'test.echo', JSON.stringify({ value: '' }), 400],
    ['input missing a field', 'test.echo', JSON.stringify({ other: 1 }), 400],
    ['a body that is not JSON', 'test.echo', '{"value": ', 400],
    ['an empty body', 'test.echo', '', 400],
    ['a JSON scalar', 'test.echo', '"text"', 400],
    ['an unknown tool', 'test.nope', JSON.stringify({}), 404],
    ['a byte-order mark before the JSON', 'test.echo', `\uFEFF${JSON.stringify({ value: 'bom' })}`, 202],
  ])('%s', async (_name, tool, rawBody, status) => {
    const [lane, express] = await bothWays(tool, rawBody);
    expect(lane.status).toBe(status);
    expect(comparable(lane)).toEqual(comparable(express));
  });

  it('an unknown API key', async () => {
    const lane = await post('lane', 'test.echo', 'sk_live_0000000000000000000000000000000000000000', '{}');
    const express = await post('express', 'test.echo', 'sk_live_0000000000000000000000000000000000000000', '{}');
    expect(lane.status).toBe(401);
    expect(lane).toEqual(express);
  });

  it('a revoked API key', async () => {
    const { key, id } = await svc.createKey(1);
    await svc.rt.store.revokeKey(id, Date.now());
    const lane = await post('lane', 'test.echo', key, JSON.stringify({ value: 'x' }));
    const express = await post('express', 'test.echo', key, JSON.stringify({ value: 'x' }));
    expect(lane.status).toBe(401);
    expect(lane).toEqual(express);
  });

  it('an idempotent replay, and the per-key rate limit with its headers', async () => {
    const answers = await bothWaysSequence(['k1', 'k1', 'k2', 'k3']);
    const [lane, express] = answers;
    expect(lane.map((a) => a.status)).toEqual([202, 202, 202, 429]);
    expect(lane[1]!.headers['idempotent-replayed']).toBe('true');
    expect((lane[1]!.body as { task_id: string }).task_id).toBe((lane[0]!.body as { task_id: string }).task_id);
    expect(lane[3]!.headers['ratelimit-remaining']).toBe('0');
    expect(lane.map(comparable)).toEqual(express.map(comparable));
  });
});

/** Four creations per path with one key each, with the given idempotency keys (the key allows 3 a window). */
async function bothWaysSequence(idempotencyKeys: string[]): Promise<[Answer[], Answer[]]> {
  const out: Answer[][] = [];
  for (const via of ['lane', 'express'] as const) {
    const { key } = await svc.createKey(1);
    const answers: Answer[] = [];
    for (const k of idempotencyKeys) answers.push(await post(via, 'test.echo', key, JSON.stringify({ value: k }), { 'idempotency-key': `${via}-${k}` }));
    out.push(answers);
  }
  return [out[0]!, out[1]!];
}

describe('a poll on the lane answers as the Express route does', () => {
  async function poll(via: 'lane' | 'express', id: string, token: string): Promise<Answer> {
    const before = expressCalls.mock.calls.length;
    const res = await fetch(`${svc.url}/v1/tasks/${id}${via === 'lane' ? '' : '?via=express'}`, { headers: { authorization: `Bearer ${token}` } });
    expect(expressCalls.mock.calls.length - before).toBe(via === 'lane' ? 0 : 1);
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      if (!['date', 'connection', 'keep-alive'].includes(k)) headers[k] = v;
    });
    return { status: res.status, headers, body: await res.json() };
  }

  it.each([
    ['its own poll token', (a: Created, _b: Created): [string, string] => [a.task_id, a.poll_token], 200],
    ['the poll token of another task', (a: Created, b: Created): [string, string] => [a.task_id, b.poll_token], 403],
    ['a forged poll token', (a: Created, _b: Created): [string, string] => [a.task_id, `${a.poll_token.slice(0, -2)}xx`], 401],
  ] as const)('with %s', async (_name, pick, status) => {
    const { key } = await svc.createKey(1);
    const a = (await post('lane', 'test.echo', key, JSON.stringify({ value: 'a' }))).body as Created;
    const b = (await post('lane', 'test.echo', key, JSON.stringify({ value: 'b' }))).body as Created;
    const [id, token] = pick(a, b);
    const lane = await poll('lane', id, token);
    expect(lane.status).toBe(status);
    const express = await poll('express', id, token);
    // The task may have run between the two reads: compare all but what running changes.
    const still = (x: Answer) => ({ ...x, body: { ...(x.body as object), status: 0, result: 0, started_at: 0, completed_at: 0, progress: 0 } });
    expect(still(lane)).toEqual(still(express));
  });
});

interface Created {
  task_id: string;
  poll_token: string;
}

describe('which requests take the lane', () => {
  const req = (over: { method?: string; url?: string; headers?: Record<string, string> }) =>
    ({
      method: over.method ?? 'POST',
      url: over.url ?? '/v1/tools/dns.lookup/tasks',
      headers: { authorization: 'Bearer sk_live_x', 'content-type': 'application/json', 'content-length': '10', ...over.headers },
    }) as unknown as IncomingMessage;

  it('takes a JSON creation with an API key', () => {
    expect(creationTool(req({}), 100)).toBe('dns.lookup');
    expect(creationTool(req({ headers: { 'content-type': 'application/json; charset=UTF-8' } }), 100)).toBe('dns.lookup');
  });

  it.each([
    ['another method', { method: 'PUT' }],
    ['a query string', { url: '/v1/tools/dns.lookup/tasks?x=1' }],
    ['a trailing slash', { url: '/v1/tools/dns.lookup/tasks/' }],
    ['an encoded tool name', { url: '/v1/tools/dns%2Elookup/tasks' }],
    ['a poll token', { headers: { authorization: 'Bearer pt_x' } }],
    ['no credential (x402 or a 402 answer)', { headers: { authorization: '' } }],
    ['another content type', { headers: { 'content-type': 'text/plain' } }],
    ['another charset', { headers: { 'content-type': 'application/json; charset=latin1' } }],
    ['a chunked body', { headers: { 'transfer-encoding': 'chunked' } }],
    ['a compressed body', { headers: { 'content-encoding': 'gzip' } }],
    ['a body over the limit', { headers: { 'content-length': '101' } }],
  ])('leaves %s to Express', (_name, over) => {
    expect(creationTool(req(over), 100)).toBeUndefined();
  });

  it('takes a poll with its poll token and no query', () => {
    const poll = (url: string, authorization: string) => ({ method: 'GET', url, headers: { authorization } }) as unknown as IncomingMessage;
    expect(pollRequest(poll('/v1/tasks/task_1', 'Bearer pt_a.b.c'))).toEqual({ id: 'task_1', token: 'pt_a.b.c' });
    expect(pollRequest(poll('/v1/tasks/task_1?wait=5', 'Bearer pt_a.b.c'))).toBeUndefined();
    expect(pollRequest(poll('/v1/tasks/task_1', 'Bearer sk_live_x'))).toBeUndefined();
    expect(pollRequest(poll('/v1/tasks/task_1', 'bearer  pt_a.b.c '))).toBeUndefined();
    expect(pollRequest(poll('/v1/tasks/task_1/cancel', 'Bearer pt_a.b.c'))).toBeUndefined();
  });
});

describe('the per-address limit', () => {
  it('counts the lane and the Express routes against one limit, with the same 429', async () => {
    const limited = await startTestService({ RATE_LIMIT_PER_IP: '3', RATE_LIMIT_PER_KEY: '0' }, { tools: testTools });
    try {
      const { key } = await limited.createKey(1);
      const create = (query = '') =>
        fetch(`${limited.url}/v1/tools/test.echo/tasks${query}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ value: 'x' }),
        });
      expect((await create()).status).toBe(202);
      expect((await fetch(`${limited.url}/v1/tools`)).status).toBe(200);
      const third = await create();
      expect(third.status).toBe(202);
      expect(third.headers.get('ratelimit-remaining')).toBe('0');
      const lane = await create();
      const express = await create('?via=express');
      expect(lane.status).toBe(429);
      expect(await lane.json()).toEqual(await express.json());
      for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-policy', 'retry-after']) expect(lane.headers.get(h)).toBe(express.headers.get(h));
    } finally {
      await limited.close();
    }
  });
});

describe('a client gone in the middle of its body', () => {
  it('creates nothing and leaves the server serving', async () => {
    const { key, id } = await svc.createKey(1);
    const before = (await svc.rt.store.listTasks({ payer: { kind: 'key', id }, limit: 10 })).length;
    const { port } = new URL(svc.url);
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /v1/tools/test.echo/tasks HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"value":`,
        );
        // Let the server start reading the body, then hang up.
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    const after = await post('lane', 'test.echo', key, JSON.stringify({ value: 'still here' }));
    expect(after.status).toBe(202);
    expect((await svc.rt.store.listTasks({ payer: { kind: 'key', id }, limit: 10 })).length).toBe(before + 1);
  });
});
