// One GET that stops at the response headers: the body is never read and the connection is closed as soon
// as the status line and headers are in. Each call has its own undici Client (so its own connection, whose
// timings and certificate belong to this request alone), destroyed once the headers arrive. Destroying the
// client rather than aborting the request matters: undici reconnects to retire an aborted request.
// Uses undici's dispatch API because it alone exposes the server's own reason phrase.
import { STATUS_CODES } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Client, type buildConnector, type Dispatcher } from 'undici';
import type { AbortLike } from './deadline.js';

export interface HeadersResponse {
  statusCode: number;
  /** The server's reason phrase, or the standard one when the server sent none. */
  statusText: string;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** performance.now() when the headers arrived. */
  receivedAt: number;
}

export interface FetchHeadersOptions {
  /** Opens the connection (the guarded connector). */
  connect: buildConnector.connector;
  headers?: Record<string, string>;
  /** Stops waiting: the connection is destroyed and the promise rejects with the signal's reason. */
  signal?: AbortLike | undefined;
  /** undici's own headers timeout, a backstop for callers without a signal. */
  headersTimeoutMs?: number;
}

// Passed to destroy() so undici does not build (and capture a stack for) an error per request.
const HEADERS_RECEIVED = new Error('done: the response headers were received, the rest is discarded');
const noop = () => undefined;

export function fetchHeaders(url: URL, opts: FetchHeadersOptions): Promise<HeadersResponse> {
  const client = new Client(url.origin, {
    connect: opts.connect,
    pipelining: 1,
    ...(opts.headersTimeoutMs !== undefined ? { headersTimeout: opts.headersTimeoutMs, bodyTimeout: opts.headersTimeoutMs } : {}),
  });
  const close = () => client.destroy(HEADERS_RECEIVED, noop);
  const { signal } = opts;

  return new Promise<HeadersResponse>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      fn();
      close();
    };
    const onAbort = () => settle(() => reject(signal?.reason));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });

    const handler: Dispatcher.DispatchHandler = {
      // Present so undici treats this as a new-style (controller) handler.
      onRequestStart() {},
      onResponseStart(controller, statusCode, headers, statusMessage) {
        // 1xx (e.g. 103 Early Hints) precede the real response.
        if (statusCode < 200) return;
        controller.pause();
        settle(() =>
          resolve({
            statusCode,
            statusText: statusMessage || STATUS_CODES[statusCode] || '',
            headers: flattenHeaders(headers),
            receivedAt: performance.now(),
          }),
        );
      },
      onResponseData() {},
      onResponseError(_controller, err) {
        settle(() => reject(err));
      },
      onResponseEnd() {
        settle(() => reject(new Error('the response ended without a final status')));
      },
    };
    try {
      client.dispatch({ origin: url.origin, path: `${url.pathname}${url.search}`, method: 'GET', headers: opts.headers ?? {}, reset: true }, handler);
    } catch (err) {
      settle(() => reject(err as Error));
    }
  });
}

export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  // A server may send a header named __proto__: fromEntries keeps it a header instead of a prototype.
  return Object.fromEntries(
    Object.entries(headers).flatMap(([name, value]) => (value === undefined ? [] : [[name.toLowerCase(), Array.isArray(value) ? value.join(', ') : value]])),
  );
}
