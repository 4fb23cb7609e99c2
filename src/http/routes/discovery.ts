// Discovery: tool list and details, service metadata, the A2A card, OpenAPI, /docs, health, metrics.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageDir } from '../../package-dir.js';
import express, { Router } from 'express';
import type { Engine } from '../../engine/engine.js';
import type { TaskMetrics } from '../../engine/metrics.js';
import { buildAgentCard } from '../../web/agent-card.js';
import { buildOpenApi } from '../openapi.js';
import { healthReport, type HealthPart } from '../health.js';
import { VERSION } from '../../version.js';

/** The console's icon (src/console/html.ts writes the same one inline). */
const FAVICON_SVG = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'><rect width='16' height='16' rx='3' fill='#1f6feb'/></svg>";

export interface DiscoveryDeps {
  engine: Engine;
  metrics: TaskMetrics;
  publicUrl: string;
  x402Enabled: boolean;
  leadsBaseUrl: string | undefined;
  /** More of /healthz from the front doors. */
  healthParts?: HealthPart[];
}

const DOCS_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>agent-utility API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script></body></html>`;

const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, docExpansion: 'list', validatorUrl: null });`;

/**
 * Swagger UI's files: the copy `npm pack` ships in dist/data/swagger-ui (scripts/pack-data.mjs; 2 MB of the
 * package's 12 MB), else the swagger-ui-dist development dependency in a checkout.
 */
function swaggerUiDir(): string {
  const shipped = fileURLToPath(new URL('../../../data/swagger-ui/', import.meta.url));
  if (fs.existsSync(path.join(shipped, 'swagger-ui-bundle.js'))) return shipped;
  return packageDir('swagger-ui-dist');
}

export function discoveryRoutes(d: DiscoveryDeps): Router {
  const r = Router();
  const { registry } = d.engine;
  // Generated once: the registry does not change while the process runs.
  const openapi = buildOpenApi(registry, { publicUrl: d.publicUrl, version: VERSION, x402: d.x402Enabled });
  const card = buildAgentCard(registry, { publicUrl: d.publicUrl, version: VERSION });
  const tools = registry.names.map((n) => registry.descriptor(n));

  r.get('/v1/tools', (_req, res) => {
    res.json({ tools, count: tools.length });
  });
  r.get('/v1/tools/:tool', (req, res) => {
    res.json(registry.descriptor(registry.get(String(req.params.tool)).name));
  });
  r.get('/openapi.json', (_req, res) => {
    res.json(openapi);
  });
  r.get(['/.well-known/agent.json', '/.well-known/agent-card.json'], (_req, res) => {
    res.json(card);
  });
  r.get('/.well-known/agent-service.json', (_req, res) => {
    res.json({
      name: 'agent-utility',
      version: VERSION,
      description: 'Utility tools for AI agents as asynchronous tasks.',
      base_url: d.publicUrl,
      openapi_url: `${d.publicUrl}/openapi.json`,
      docs_url: `${d.publicUrl}/docs`,
      agent_card_url: `${d.publicUrl}/.well-known/agent.json`,
      mcp: { transport: 'streamable-http', url: `${d.publicUrl}/mcp` },
      a2a: { url: `${d.publicUrl}/a2a` },
      task_pattern: {
        create: 'POST /v1/tools/{tool}/tasks',
        poll: 'GET /v1/tasks/{task_id} with Authorization: Bearer <poll_token>; add ?wait=N (≤ 30 s) to wait for the result',
        statuses: ['pending', 'running', 'complete', 'failed', 'cancelled'],
      },
      authentication: [
        { type: 'api_key', header: 'Authorization', scheme: 'Bearer', prefix: 'sk_' },
        { type: 'poll_token', header: 'Authorization', scheme: 'Bearer', prefix: 'pt_', lifetime_hours: 24 },
        ...(d.x402Enabled ? [{ type: 'x402', header: 'PAYMENT-SIGNATURE', version: 2 }] : []),
      ],
      api_keys: {
        usage: 'GET /v1/usage?from&to&group=tool|day with the key as Bearer',
        tasks: 'GET /v1/tasks?status&tool&since&cursor with the key as Bearer',
        ...(d.x402Enabled
          ? {
              buy: 'POST /v1/keys {"usd": "5"} paid with x402; the key is in the 201 answer only',
              top_up: 'POST /v1/keys/current/credits {"usd": "5"} with the key as Bearer, paid with x402',
              list_bought: 'GET /v1/keys with SIGN-IN-WITH-X',
            }
          : {}),
      },
      tools: tools.map((t) => ({
        name: t.name,
        title: t.title,
        price_usd: t.price.usd,
        ...(t.price.rule ? { price_rule: t.price.rule } : {}),
        endpoint: t.endpoint,
      })),
      ...(d.leadsBaseUrl ? { lead_service: { base_url: d.leadsBaseUrl } } : {}),
    });
  });

  const swaggerDir = swaggerUiDir();
  r.get(['/docs', '/docs/'], (_req, res) => {
    res.type('html').send(DOCS_HTML);
  });
  r.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(DOCS_INIT);
  });
  r.use('/docs/assets', express.static(swaggerDir, { index: false, maxAge: '1h' }));

  // Tools that ask for /favicon.ico without reading the pages (the pages carry an inline icon) get the same
  // small square instead of a 404 in the log.
  r.get('/favicon.ico', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.type('image/svg+xml').send(FAVICON_SVG);
  });

  r.get('/healthz', async (_req, res) => {
    const report = await healthReport(d.engine, d.healthParts);
    res.status(report.status).json(report.body);
  });
  r.get('/metrics', async (_req, res) => {
    res.type('text/plain; version=0.0.4').send(await d.metrics.render(d.engine.store));
  });
  return r;
}
