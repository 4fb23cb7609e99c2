// The 2026-07-28 leg of /mcp. Our Express router keeps its guards (Host, Origin, JSON, size, auth, rate
// limits) in front of both eras; after them, a request carrying the 2026-07-28 _meta envelope (decided by
// the v2 SDK's own isLegacyRequest, the predicate its entry routes with) goes to the SDK's stateless
// handler, which runs the validation ladder (envelope, supported revision, header/body agreement) and one
// fresh server per request from our factory. Everything else stays on the 2025-11-25 (v1 SDK) path.
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Request as ExpressRequest, Response as ExpressResponse } from 'express';
import { createMcpHandler, isLegacyRequest, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { Caller } from '../web/caller.js';
import { callerKey } from '../web/caller.js';
import { buildModernMcpServer } from './modern-server.js';
import type { McpServerDeps } from './server.js';

type FactoryDeps = Omit<McpServerDeps, 'caller' | 'cancelOnAbort' | 'inFlight'>;

/** One handler for the process; the caller of each request reaches the factory through authInfo. */
export function createModernHttpHandler(d: FactoryDeps, bodyLimitBytes: number): McpHttpHandler {
  return createMcpHandler(
    (ctx) => {
      const caller = ctx.authInfo?.extra?.['caller'] as Caller | undefined;
      if (!caller) throw new Error('MCP request reached the 2026-07-28 handler without an authenticated caller.');
      return buildModernMcpServer(d.log, () => ({ ...d, caller }));
    },
    {
      legacy: 'reject',
      maxRequestBodySize: bodyLimitBytes,
      onerror: (err) => d.log.debug('mcp 2026-07-28 request refused or failed', { err }),
    },
  );
}

/** The Express request (body already parsed) as a web Request, aborted when the client goes away. */
export function toWebRequest(req: ExpressRequest, res: ExpressResponse): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'content-length') continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const aborted = new AbortController();
  // A 2026-07-28 client cancels a call by closing its response stream.
  res.on('close', () => {
    if (!res.writableFinished) aborted.abort();
  });
  const url = new URL(req.originalUrl, `http://${req.get('host') ?? 'localhost'}`);
  return new Request(url, { method: req.method, headers, body: JSON.stringify(req.body), signal: aborted.signal });
}

/**
 * Whether the 2026-07-28 leg answers this request. A body that is no JSON-RPC message at all (`{}`, an
 * empty body) stays on the 2025 path, which has always answered it with a parse error.
 */
export async function isModernRequest(request: Request, body: unknown, bodyLimitBytes: number): Promise<boolean> {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const jsonRpc = messages.some((m) => typeof m === 'object' && m !== null && (m as { jsonrpc?: unknown }).jsonrpc === '2.0');
  return jsonRpc && !(await isLegacyRequest(request, body, { maxRequestBodySize: bodyLimitBytes }));
}

export async function serveModern(handler: McpHttpHandler, request: Request, body: unknown, caller: Caller, res: ExpressResponse): Promise<void> {
  const response = await handler.fetch(request, {
    parsedBody: body,
    authInfo: { token: '', clientId: callerKey(caller), scopes: [], extra: { caller } },
  });
  res.status(response.status);
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (!response.body) {
    res.end();
    return;
  }
  const stream = Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>);
  res.on('close', () => stream.destroy());
  stream.pipe(res);
}
