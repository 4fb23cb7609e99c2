// The Express app of the task service: /v1, discovery, docs, health, metrics, plus mount points that
// other front doors (MCP at /mcp, A2A at /a2a, artifacts at /files) register through `mounts`.
import express, { type Express, type Router } from 'express';
import type { RequestListener } from 'node:http';
import { PollTokens } from '../auth/poll-token.js';
import { resolveSecret } from '../auth/secret.js';
import type { PaymentGate } from '../billing/payment-gate.js';
import { TaskMetrics } from '../engine/metrics.js';
import type { Runtime } from '../runtime.js';
import { errorHandler, notFoundHandler } from '../web/errors.js';
import { ipRateLimit } from '../web/rate-limit.js';
import { requestLimits } from '../web/request-limits.js';
import { ApiKeyCache } from '../web/api-key-cache.js';
import { batchRoutes } from './routes/batches.js';
import { withFastLane } from './fast-lane.js';
import { discoveryRoutes } from './routes/discovery.js';
import type { HealthPart } from './health.js';
import { taskRoutes, type TaskRoutesDeps } from './routes/tasks.js';
import { keyPurchaseRoutes } from './routes/key-purchases.js';
import { usageRoutes } from './routes/usage.js';
import { webhookRoutes } from './routes/webhooks.js';
import { walletTaskRoutes } from './routes/wallet-tasks.js';
import type { X402Payments } from '../billing/x402/payments.js';

export interface HttpAppOptions {
  paymentGate?: PaymentGate;
  /** Extra routers mounted before the 404 handler, e.g. { path: '/mcp', router }. */
  mounts?: { path: string; router: Router | express.RequestHandler }[];
  readAuthorizers?: TaskRoutesDeps['readAuthorizers'];
  metrics?: TaskMetrics;
  /** x402 payments, when on: wallets sign in to list their tasks. */
  x402?: X402Payments;
  /** More of /healthz from the front doors (e.g. whether Chromium runs with its sandbox). */
  healthParts?: HealthPart[];
}

export interface HttpApp {
  app: Express;
  /** What the server runs: the task-creation fast lane (fast-lane.ts) in front of `app`. */
  handler: RequestListener;
  metrics: TaskMetrics;
  pollTokens: PollTokens;
}

export function createHttpApp(rt: Runtime, opts: HttpAppOptions = {}): HttpApp {
  const { config } = rt;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.http.trustProxy);
  app.set('json spaces', 0);
  const metrics = opts.metrics ?? new TaskMetrics(rt.engine.events);
  const webhooks = rt.webhooks;
  if (webhooks) metrics.addCollector(() => webhooks.metricsText());
  const pollTokens = new PollTokens(resolveSecret(config));
  // Shared with MCP and A2A (one budget per key), and across API nodes on PostgreSQL.
  const { perAddress: ipLimiter, perKey: keyLimiter } = requestLimits(rt);

  // Every /v1 route counts against the per-address limit, discovery (GET /v1/tools) included; with no
  // limit configured the middleware is not installed at all.
  const perAddress = ipLimiter.limit > 0 ? [ipRateLimit(ipLimiter)] : [];
  const json = express.json({ limit: config.http.bodyLimitBytes, type: ['application/json', 'application/*+json'], strict: false });

  // The hot routes first (create, poll, cancel a task): they do not walk the discovery routes, the mounted
  // front doors and the batch routes on every request, and only creation parses a body.
  const createDeps = {
    engine: rt.engine,
    pollTokens,
    keyLimiter,
    paymentGate: opts.paymentGate,
    publicUrl: config.publicUrl,
    keys: new ApiKeyCache(rt.store),
  };
  app.use(taskRoutes({ ...createDeps, ...(opts.readAuthorizers ? { readAuthorizers: opts.readAuthorizers } : {}), json, before: perAddress }));
  if (perAddress.length > 0) app.use('/v1', ...perAddress);
  app.use(
    discoveryRoutes({
      engine: rt.engine,
      metrics,
      publicUrl: config.publicUrl,
      x402Enabled: opts.paymentGate !== undefined,
      leadsBaseUrl: config.leads.baseUrl,
      healthParts: opts.healthParts ?? [],
    }),
  );
  for (const m of opts.mounts ?? []) app.use(m.path, m.router);
  // Before the /v1 JSON parser: a batch upload has its own (larger) body limit and CSV/NDJSON parsers.
  app.use(batchRoutes({ engine: rt.engine, pollTokens, keyLimiter, x402Enabled: opts.paymentGate !== undefined }));
  // The caller's own tasks and usage (API key, or a signed-in wallet for the task list).
  app.use('/v1/tasks', walletTaskRoutes({ engine: rt.engine, x402: opts.x402, publicUrl: config.publicUrl }));
  app.use('/v1/usage', usageRoutes({ engine: rt.engine }));
  app.use(webhookRoutes({ engine: rt.engine, webhooks: rt.webhooks, keyLimiter }));
  // Self-serve keys paid with x402 (off without x402): they read their small bodies after the headers.
  if (opts.x402) app.use('/v1/keys', keyPurchaseRoutes({ engine: rt.engine, x402: opts.x402, config, log: rt.log }));
  app.use(notFoundHandler);
  app.use(errorHandler(rt.log));
  const handler = withFastLane(app, {
    deps: createDeps,
    bodyLimitBytes: config.http.bodyLimitBytes,
    ipLimiter: ipLimiter.limit > 0 ? ipLimiter : undefined,
    trustProxy: config.http.trustProxy,
    log: rt.log,
  });
  return { app, handler, metrics, pollTokens };
}
