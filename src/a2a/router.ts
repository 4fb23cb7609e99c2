// A2A over JSON-RPC at /a2a, on @a2a-js/sdk's Express handler. Every request needs an API key
// (Authorization: Bearer sk_…, like REST task creation); v1.0 clients (A2A-Version: 1.0) and v0.3 clients
// (no header) are both served, through the SDK's v0.3 compatibility layer.
import { AgentCard } from '@a2a-js/sdk';
import { jsonRpcHandler } from '@a2a-js/sdk/server/express';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { Unauthorized } from '../errors.js';
import { buildAgentCard } from '../web/agent-card.js';
import { readCredential } from '../web/credential.js';
import { toAppError } from '../web/errors.js';
import { applyAddressLimit, applyRateLimit } from '../web/rate-limit.js';
import { requestLimits } from '../web/request-limits.js';
import type { Runtime } from '../runtime.js';
import { VERSION } from '../version.js';
import { ApiKeyUser, EngineA2AHandler } from './request-handler.js';

const BEARER = { 'WWW-Authenticate': 'Bearer realm="agent-utility"' };

export function createA2ARouter(rt: Runtime): Router {
  const { config } = rt;
  const log = rt.log.child({ door: 'a2a' });
  // The same card the well-known paths serve, parsed into the SDK's form (it checks versions against it).
  const card = AgentCard.fromJSON(buildAgentCard(rt.registry, { publicUrl: config.publicUrl, version: VERSION }));
  const handler = new EngineA2AHandler(rt.engine, rt.registry, card, log);
  // The same counts as /v1 and /mcp: one budget per key and per address, across API nodes on PostgreSQL.
  const { perAddress: ipLimiter, perKey: keyLimiter } = requestLimits(rt);
  const users = new WeakMap<Request, ApiKeyUser>();

  const router = express.Router();
  router.use(async (req: Request, res: Response, next: NextFunction) => {
    await applyAddressLimit(ipLimiter, req.ip, res);
    const credential = await readCredential(req, rt.store);
    if (credential.kind !== 'key') {
      throw new Unauthorized(
        'A2A calls need an API key: send "Authorization: Bearer sk_live_…".',
        credential.kind === 'none' ? 'MISSING_CREDENTIAL' : 'INVALID_API_KEY',
        BEARER,
      );
    }
    await applyRateLimit(keyLimiter, `key:${credential.key.id}`, res);
    users.set(req, new ApiKeyUser(credential.key.id));
    next();
  });
  router.use(
    jsonRpcHandler({
      requestHandler: handler,
      userBuilder: async (req) => {
        const user = users.get(req);
        if (!user) throw new Unauthorized('The request was not authenticated.', 'MISSING_CREDENTIAL', BEARER);
        return user;
      },
      legacyCompat: { enabled: true },
    }),
  );
  // Refusals before the SDK (auth, rate limits) as JSON-RPC errors with our HTTP status and headers.
  router.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(err);
    const app = toAppError(err);
    if (!app) {
      log.error('a2a request failed', { err });
      res.status(500).json({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal server error; it was logged.' } });
      return;
    }
    for (const [k, v] of Object.entries(app.headers)) res.setHeader(k, v);
    res.status(app.status).json({ jsonrpc: '2.0', id: null, error: { code: -32000, message: app.message, data: { code: app.code, status: app.status } } });
  });
  return router;
}
