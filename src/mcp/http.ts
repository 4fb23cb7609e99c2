// MCP over streamable HTTP at /mcp on the main port. Stateless: every POST gets a fresh MCP server and
// transport (the SDK's stateless pattern), so any API node can answer any request and nothing is kept per
// session. Tool calls (which wait for their task) and tasks/result answer as SSE on their POST, with
// progress notifications when asked for; quick requests are answered as plain JSON. MCP tasks live in the
// task store, so tasks/get and tasks/result work from any later request. GET (a standalone SSE stream) and
// DELETE (ending a session) have no meaning without sessions: 405.
//
// Before the SDK sees a request: the Host header must name this service (DNS rebinding), a browser Origin
// must be one of ours, the body must be JSON within the size limit, and the caller must present an API key
// (Authorization: Bearer sk_…) unless MCP_AUTH turns that off (for loopback callers, or entirely).
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Forbidden, Unauthorized, type AppError } from '../errors.js';
import { readCredential } from '../web/credential.js';
import { toAppError } from '../web/errors.js';
import { applyAddressLimit, applyRateLimit } from '../web/rate-limit.js';
import { requestLimits } from '../web/request-limits.js';
import type { Runtime } from '../runtime.js';
import { artifactStoreService } from '../artifacts/service.js';
import { keyCaller, localCaller, type Caller } from '../web/caller.js';
import { InFlightCalls } from './in-flight.js';
import { createModernHttpHandler, isModernRequest, serveModern, toWebRequest } from './modern-http.js';
import { assertInputDepth, MAX_INPUT_DEPTH } from '../engine/input-depth.js';
import { buildMcpServer } from './server.js';
import { reservedArgumentError } from './tool-call-request.js';
import { resolveToolNames } from '../registry/tool-names.js';
import { allowedHostnames, isAllowedHost, isAllowedOrigin, isLoopback } from './http-guards.js';

/** JSON-RPC "server error" code used for transport-level refusals (auth, host, size). */
const TRANSPORT_ERROR = -32000;
const PARSE_ERROR = -32700;

export function createMcpRouter(rt: Runtime): Router {
  const { config } = rt;
  const registry = rt.registry.subset(config.mcp.tools ? resolveToolNames(rt.registry, config.mcp.tools) : undefined);
  const hosts = allowedHostnames(config);
  const inFlight = new InFlightCalls();
  // The same counts as /v1 and /a2a: one budget per key and per address, across API nodes on PostgreSQL.
  const { perAddress: ipLimiter, perKey: keyLimiter } = requestLimits(rt);
  const artifacts = () => rt.scope.use(artifactStoreService);
  const log = rt.log.child({ door: 'mcp-http' });
  const modern = createModernHttpHandler({ engine: rt.engine, registry, config, log, artifacts }, config.http.bodyLimitBytes);

  const router = express.Router();

  router.use(async (req, res, next) => {
    if (!isAllowedHost(req.get('host'), hosts)) {
      throw new Forbidden(`Host "${req.get('host') ?? ''}" is not this service (DNS rebinding protection); use ${config.publicUrl}/mcp.`, 'INVALID_HOST');
    }
    const origin = req.get('origin');
    if (origin !== undefined && !isAllowedOrigin(origin, hosts)) {
      throw new Forbidden(`Origin ${origin} may not call this MCP server.`, 'INVALID_ORIGIN');
    }
    await applyAddressLimit(ipLimiter, req.ip, res);
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      res
        .status(405)
        .json(rpcError('This MCP server is stateless: send each JSON-RPC message as a POST to /mcp (no SSE stream via GET, no sessions to DELETE).'));
      return;
    }
    if (!req.is('application/json')) {
      res.status(415).json(rpcError(`Content-Type must be application/json (got ${req.get('content-type') ?? 'none'}).`));
      return;
    }
    next();
  });

  const json = express.json({ limit: config.http.bodyLimitBytes, strict: true });

  router.post('/', async (req: Request, res: Response) => {
    // The credential is checked from the headers before the body (up to BODY_LIMIT_BYTES) is read.
    const caller = await authenticate(req, rt);
    await new Promise<void>((resolve, reject) => json(req, res, (err?: unknown) => (err ? reject(err as Error) : resolve())));
    if (req.body === undefined) {
      res.status(400).json(rpcError('The request body is empty; send a JSON-RPC message.', PARSE_ERROR));
      return;
    }
    // Each tools/call of a batch counts, so batching cannot multiply the key's rate.
    const calls = toolCalls(req.body);
    if (caller.chargeKeyId && calls > 0) await applyRateLimit(keyLimiter, `key:${caller.chargeKeyId}`, res, calls);
    const reserved = reservedArgumentError(req.body);
    if (reserved) {
      res.status(200).json(reserved);
      return;
    }
    // A body nested too deep for any tool input stays on the 2025 path, which answers it as invalid input;
    // the 2026 leg would re-serialise and schema-check it recursively first.
    if (!nestsTooDeep(req.body)) {
      const webRequest = toWebRequest(req, res);
      if (await isModernRequest(webRequest, req.body, config.http.bodyLimitBytes)) {
        await serveModern(modern, webRequest, req.body, caller, res);
        return;
      }
    }
    const server = buildMcpServer({ engine: rt.engine, registry, config, log, caller, artifacts, cancelOnAbort: false, inFlight });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !mayTakeLong(req.body) });
    // The answer is out (or the client left): this request's server and transport are done.
    res.on('close', () => {
      transport.close().catch(() => undefined);
      server.close().catch(() => undefined);
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });

  // Refusals are answered as JSON-RPC errors (what MCP clients parse), with the HTTP status and headers
  // of our error hierarchy (401 carries WWW-Authenticate).
  router.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    const app = toAppError(err);
    if (!app) {
      log.error('mcp request failed', { err, method: req.method });
      res.status(500).json(rpcError('Internal server error; it was logged. Retry later.', -32603));
      return;
    }
    for (const [k, v] of Object.entries(app.headers)) res.setHeader(k, v);
    res.status(app.status).json(rpcError(app.message, app.code === 'INVALID_JSON' ? PARSE_ERROR : TRANSPORT_ERROR, app));
  });

  return router;
}

const BEARER = { 'WWW-Authenticate': 'Bearer realm="agent-utility"' };

async function authenticate(req: Request, rt: Runtime): Promise<Caller> {
  const credential = await readCredential(req, rt.store);
  if (credential.kind === 'key') return keyCaller(credential.key.id);
  if (credential.kind === 'poll-token')
    throw new Unauthorized('A poll token only reads its task; MCP needs an API key (Bearer sk_…).', 'WRONG_CREDENTIAL', BEARER);
  if (credential.kind === 'bearer') throw new Unauthorized('Unrecognised bearer token: API keys start with sk_.', 'INVALID_API_KEY', BEARER);
  const auth = rt.config.mcp.auth;
  if (auth === 'off') return localCaller('http');
  // Both the connection and the client address Express derived (through trusted proxies) must be loopback:
  // a remote client behind a local proxy is not local, nor is one whose header a misconfigured hop count trusts.
  if (auth === 'localhost-off' && isLoopback(req.ip) && isLoopback(req.socket.remoteAddress)) return localCaller('http-localhost');
  throw new Unauthorized('This MCP server needs an API key: send "Authorization: Bearer sk_live_…".', 'MISSING_CREDENTIAL', BEARER);
}

/** How many tools/call messages a JSON-RPC body (one message or a batch) holds: each counts against the key's rate limit. */
function toolCalls(body: unknown): number {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.filter((m) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'tools/call').length;
}

/**
 * Whether the answer may take a while (a tool call waiting for its task, tasks/result) or carries progress:
 * those stream as SSE, whose keep-alive comments keep proxies from closing a quiet connection. Everything
 * else is answered as plain JSON.
 */
function mayTakeLong(body: unknown): boolean {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.some((m) => {
    const msg = m as { method?: unknown; params?: { task?: unknown; _meta?: { progressToken?: unknown } } } | null;
    if (msg?.params?._meta?.progressToken !== undefined) return true;
    return (msg?.method === 'tools/call' && msg.params?.task === undefined) || msg?.method === 'tasks/result';
  });
}

function rpcError(message: string, code = TRANSPORT_ERROR, app?: AppError): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id: null,
    error: { code, message, ...(app ? { data: { code: app.code, status: app.status } } : {}) },
  };
}

/** Deeper than a tool input may be, plus the JSON-RPC envelope (message, params, arguments). */
function nestsTooDeep(body: unknown): boolean {
  try {
    assertInputDepth(body, MAX_INPUT_DEPTH + 4);
    return false;
  } catch {
    return true;
  }
}
