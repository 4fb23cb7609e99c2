// The JSON-RPC transport x402's chain access uses (rpc-transport.ts) against a loopback node that answers
// as scripted: what it sends, and that every answer (a result, an RPC error with revert data, an HTTP
// error, no answer in time) reaches viem as viem's own http() transport delivers it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BaseError, createPublicClient, http as viemHttp, HttpRequestError, RpcRequestError, TimeoutError } from 'viem';
import { jsonRpcTransport } from '../../src/billing/x402/rpc-transport.js';

interface Seen {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: { jsonrpc: string; id: number; method: string; params?: unknown };
}

const seen: Seen[] = [];
let server: http.Server;
let base: string;

/** Answers by method: eth_chainId a result, eth_call a revert, eth_blockNumber a 500 page, eth_getCode never. */
function answer(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
  const body = JSON.parse(raw) as Seen['body'];
  seen.push({ url: req.url ?? '', headers: req.headers, body });
  const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
  switch (body.method) {
    case 'eth_chainId':
      return json(200, { jsonrpc: '2.0', id: body.id, result: '0x2105' });
    case 'eth_call':
      return json(200, { jsonrpc: '2.0', id: body.id, error: { code: 3, message: 'execution reverted: FiatTokenV2: invalid signature', data: '0x08c379a0' } });
    case 'eth_blockNumber':
      return res.writeHead(500, { 'content-type': 'text/plain' }).end('upstream down');
    case 'eth_gasPrice':
      return json(429, { jsonrpc: '2.0', id: body.id, error: { code: -32005, message: 'rate limited' } });
    default:
      return undefined; // eth_getCode: no answer (the timeout's case)
  }
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => answer(req, res, raw));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A client on each transport, no retries, a short timeout (the never-answered call). */
function clients(url: string) {
  return {
    ours: createPublicClient({ transport: jsonRpcTransport(url, { retryCount: 0, timeoutMs: 300 }) }),
    viems: createPublicClient({ transport: viemHttp(url, { retryCount: 0, timeout: 300 }) }),
  };
}

/** What viem's error handling reads from a failed call: the outer error's class, and the transport error in its causes. */
async function failure(call: Promise<unknown>) {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BaseError);
  const cause = (err as BaseError).walk((e) => e instanceof RpcRequestError || e instanceof HttpRequestError || e instanceof TimeoutError) as
    (BaseError & { code?: number; data?: unknown; status?: number }) | null;
  return { outer: (err as Error).name, inner: cause?.name, code: cause?.code, data: cause?.data, status: cause?.status };
}

describe('jsonRpcTransport', () => {
  it('sends one JSON-RPC 2.0 request to the URL path, with Basic authorization from the URL, and returns the result', async () => {
    seen.length = 0;
    const { ours } = clients(`http://user:p%40ss@${base.slice('http://'.length)}/rpc/v1?key=k`);
    expect(await ours.getChainId()).toBe(8453);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe('/rpc/v1?key=k');
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from('user:p@ss').toString('base64')}`);
    expect(seen[0]!.body).toMatchObject({ jsonrpc: '2.0', method: 'eth_chainId' });
    expect(typeof seen[0]!.body.id).toBe('number');
  });

  it('gives a node error with its code and revert data as viem http() does', async () => {
    const { ours, viems } = clients(base);
    const call = (c: typeof ours) => c.call({ to: '0x0000000000000000000000000000000000000001', data: '0x' });
    const got = await failure(call(ours));
    expect(got).toEqual(await failure(call(viems)));
    expect(got).toMatchObject({ inner: 'RpcRequestError', code: 3, data: '0x08c379a0' });
  });

  it('gives an HTTP error page, and a JSON-RPC error in a non-2xx answer, as viem http() does', async () => {
    const { ours, viems } = clients(base);
    const page = await failure(ours.getBlockNumber({ cacheTime: 0 }));
    expect(page).toEqual(await failure(viems.getBlockNumber({ cacheTime: 0 })));
    expect(page).toMatchObject({ inner: 'HttpRequestError', status: 500 });
    const limited = await failure(ours.getGasPrice());
    expect(limited).toEqual(await failure(viems.getGasPrice()));
    expect(limited).toMatchObject({ inner: 'RpcRequestError', code: -32005 });
  });

  it('gives a call the node never answers as a TimeoutError, as viem http() does', async () => {
    const { ours, viems } = clients(base);
    const address = '0x0000000000000000000000000000000000000001';
    const got = await failure(ours.getCode({ address }));
    expect(got).toEqual(await failure(viems.getCode({ address })));
    expect(got.inner).toBe('TimeoutError');
  });

  it('gives an unreachable node as an HttpRequestError, as viem http() does', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const { ours, viems } = clients(url);
    const got = await failure(ours.getChainId());
    expect(got).toEqual(await failure(viems.getChainId()));
    expect(got.inner).toBe('HttpRequestError');
  });
});
