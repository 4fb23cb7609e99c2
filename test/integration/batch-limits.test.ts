// Credentials before bodies, limits while parsing (issue #26): a route that can read megabytes decides
// who pays from the headers before it reads the body, and a batch body is refused as soon as it passes a
// limit. The bodies here are sent with node:http and left open (or still uploading) when the answer
// comes: an answer that arrives at all proves the server did not wait for the rest of the body.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpService, type McpTestService } from '../support/mcp-service.js';
import { api } from '../support/service.js';
import { testTools } from '../support/test-tools.js';

let svc: McpTestService;
let funded: string;
let other: string;

beforeAll(async () => {
  svc = await startMcpService({}, { tools: testTools });
  ({ key: funded } = await svc.createKey(1000));
  ({ key: other } = await svc.createKey(1));
});
afterAll(async () => {
  await svc?.close();
});

interface Upload {
  /** The answer; it may come while the body is still being sent. */
  response: Promise<{ status: number; body: Record<string, any> }>;
  /** Sends the next chunk (resolves when the socket took it); false once the server answered or hung up. */
  write(chunk: Buffer | string): Promise<boolean>;
  written(): number;
  abort(): void;
}

function upload(path: string, headers: Record<string, string>): Upload {
  const url = new URL(path, svc.url);
  const req = http.request(url, { method: 'POST', headers: { ...headers, 'transfer-encoding': 'chunked' } });
  let answered = false;
  let written = 0;
  req.on('error', () => undefined); // the server may close after answering: that is the point
  const response = new Promise<{ status: number; body: Record<string, any> }>((resolve, reject) => {
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, any> }));
      res.on('error', reject);
    });
  });
  return {
    response,
    written: () => written,
    abort: () => req.destroy(),
    write: (chunk) =>
      new Promise<boolean>((resolve) => {
        if (answered || req.destroyed) return resolve(false);
        written += Buffer.byteLength(chunk);
        req.write(chunk, (err) => resolve(!err && !answered));
      }),
  };
}

describe('credentials before bodies', () => {
  it.each([
    ['no credential', {}, 402, 'BATCH_NEEDS_API_KEY'],
    ['a junk bearer', { authorization: 'Bearer nope' }, 401, 'INVALID_API_KEY'],
    ['an unknown key', { authorization: `Bearer sk_live_${'x'.repeat(43)}` }, 401, 'INVALID_API_KEY'],
    ['a poll token', { authorization: 'Bearer pt_abc.def' }, 401, 'WRONG_CREDENTIAL'],
  ])('batch creation with %s is answered from the headers, the body still open', async (_name, auth, status, code) => {
    const u = upload('/v1/tools/test.echo/batches', { 'content-type': 'text/csv', ...auth });
    await u.write('value\n' + 'x\n'.repeat(1000));
    const answer = await u.response;
    u.abort();
    expect(answer.status).toBe(status);
    expect(answer.body.code).toBe(code);
  });

  it('task creation with a junk bearer is a 401 before the body is read (as with an unknown key)', async () => {
    for (const authorization of ['Bearer nope', `Bearer sk_live_${'y'.repeat(43)}`]) {
      const u = upload('/v1/tools/test.echo/tasks', { 'content-type': 'application/json', authorization });
      await u.write('{"value":"');
      const answer = await u.response;
      u.abort();
      expect(answer.status).toBe(401);
      expect(answer.body.code).toBe('INVALID_API_KEY');
    }
  });

  it('MCP checks the key before reading the body', async () => {
    const u = upload('/mcp', { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: 'Bearer sk_live_unknown' });
    await u.write('{"jsonrpc":"2.0","id":1,');
    const answer = await u.response;
    u.abort();
    expect(answer.status).toBe(401);
  });
});

describe('limits while parsing', () => {
  it("refuses a 20 MB body of tiny rows from a funded key after the item limit, while another caller's task creation keeps answering", async () => {
    const total = 20 * 1024 * 1024;
    const chunk = 'x\n'.repeat(32 * 1024); // 64 KB of one-character rows
    const u = upload('/v1/tools/test.echo/batches', { 'content-type': 'text/csv', authorization: `Bearer ${funded}` });
    await u.write('value\n');
    // A first megabyte in flight, then another caller creates a task: it is answered at once.
    for (let i = 0; i < 16; i++) await u.write(chunk);
    const meanwhile = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: other, body: { value: 'still here' } });
    expect(meanwhile.status).toBe(202);
    while (u.written() < total && (await u.write(chunk)));
    const answer = await u.response;
    u.abort();
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'INVALID_INPUT', field: 'inputs' });
    expect(answer.body.error).toMatch(/a batch takes at most 10000 \(reading stopped there\)/);
    // The answer came while the body was still being sent: the server stopped reading after the limit.
    expect(u.written()).toBeLessThan(total);
    // Nothing was charged for the refused upload.
    const after = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: other, body: { value: 'and after' } });
    expect(after.status).toBe(202);
  });

  it('refuses a CSV row wider than its header and an unterminated quote', async () => {
    const wide = await fetch(`${svc.url}/v1/tools/test.echo/batches`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', authorization: `Bearer ${funded}` },
      body: 'value\nok\nx,y\n',
    });
    expect(wide.status).toBe(400);
    expect(await wide.json()).toMatchObject({ field: 'row 2', error: 'CSV row 2 has 2 cells but the header names 1 columns.' });
    const open = await fetch(`${svc.url}/v1/tools/test.echo/batches`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv', authorization: `Bearer ${funded}` },
      body: 'value\n"never closed\n',
    });
    expect(open.status).toBe(400);
    expect(((await open.json()) as { error: string }).error).toMatch(/ends inside a quoted cell/);
  });
});
