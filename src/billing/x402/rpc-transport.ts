// JSON-RPC over HTTP for viem's clients on undici's pooled request(), in place of viem's http() transport.
// http() goes through WHATWG fetch: per call a Request built and dropped, an AbortController and timer, an
// eagerly built TimeoutError, a Headers object and a body written to the socket in pieces. An x402 payment
// makes about four RPCs (the payer check at acceptance; gas estimate, send and receipt at settlement), and
// in the soak that per-call overhead was most of what the RPCs cost the API process. Errors take the
// shapes http() gives them (RpcRequestError with the node's code and data, HttpRequestError, TimeoutError),
// so viem's error handling (reverts, nonce conflicts, retries) reads them as before.
import { Pool } from 'undici';
import { createTransport, HttpRequestError, RpcRequestError, TimeoutError, type EIP1193RequestFn, type Transport } from './viem.js';

export interface JsonRpcTransportOptions {
  /** Retries of a failed call by viem (as http()'s retryCount). */
  retryCount?: number;
  /** Per call: for the response's headers, then for its body (as http()'s timeout; default 10 s). */
  timeoutMs?: number;
  /** Most connections kept to the node at once; further calls queue for one. */
  connections?: number;
}

interface RpcAnswer {
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

let nextId = 1;

/** Calls waiting for a connection beyond these are still served, in order; the bound keeps sockets few. */
const DEFAULT_CONNECTIONS = 16;

/** A transport for `url` (http or https; user:password in the URL becomes Basic authorization, as with http()). */
export function jsonRpcTransport(url: string, o: JsonRpcTransportOptions = {}): Transport {
  const target = new URL(url);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (target.username) headers.authorization = `Basic ${btoa(`${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`)}`;
  target.username = '';
  target.password = '';
  const plainUrl = target.toString();
  const path = `${target.pathname}${target.search}`;
  const timeout = o.timeoutMs ?? 10_000;
  // One pool per transport: built at the first call, so a client that never calls opens nothing.
  let pool: Pool | undefined;

  async function call(body: { method: string; params?: unknown }): Promise<RpcAnswer> {
    pool ??= new Pool(target.origin, { connections: o.connections ?? DEFAULT_CONNECTIONS });
    let res;
    try {
      res = await pool.request({
        path,
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, ...body }, bigintAsText),
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
    } catch (err) {
      throw failed(err, body, plainUrl);
    }
    let text: string;
    try {
      text = await res.body.text();
    } catch (err) {
      throw failed(err, body, plainUrl);
    }
    let data: RpcAnswer | undefined;
    try {
      data = JSON.parse(text || '{}') as RpcAnswer;
    } catch {
      data = undefined;
    }
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    // A JSON-RPC error in a non-2xx answer still goes the RPC error's way (as with http()).
    if (data && (ok || (typeof data.error?.code === 'number' && typeof data.error.message === 'string'))) return data;
    throw new HttpRequestError({ body, details: data ? JSON.stringify(data.error) : text, status: res.statusCode, url: plainUrl });
  }

  const request = (async ({ method, params }: { method: string; params?: unknown }) => {
    const body = { method, params };
    const answer = await call(body);
    if (answer.error) throw new RpcRequestError({ body, error: answer.error, url: plainUrl });
    return answer.result;
  }) as EIP1193RequestFn;

  return ({ retryCount }) =>
    createTransport({ key: 'http', name: 'HTTP JSON-RPC', type: 'http', retryCount: o.retryCount ?? retryCount, timeout, request }, { url: plainUrl });
}

/** viem hands parameters already hex-encoded; a bigint that slips through is written as http() writes it (decimal text). */
function bigintAsText(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/** A call that got no answer, or no whole one: viem's TimeoutError past the timeout, else its HttpRequestError. */
function failed(err: unknown, body: { method: string; params?: unknown }, url: string): Error {
  const code = (err as { code?: unknown } | null)?.code;
  const timedOut = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
  return timedOut ? new TimeoutError({ body, url }) : new HttpRequestError({ body, cause: err as Error, url });
}
