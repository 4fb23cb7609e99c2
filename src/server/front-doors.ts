// Assembles what `serve` exposes besides REST: artifact files, MCP over HTTP, A2A, x402, and the
// lead service (started in-process unless LEADS_BASE_URL points elsewhere). Each piece lives in its
// own module; this file only wires them.
import { startX402, type X402Payments } from '../billing/x402/payments.js';
import type { Config } from '../config.js';
import { TaskMetrics } from '../engine/metrics.js';
import type { Logger } from '../logger.js';
import type { Runtime } from '../runtime.js';
import type { HttpAppOptions } from '../http/app.js';
import { x402HttpOptions } from './x402-door.js';
import { createMcpRouter } from '../mcp/http.js';
import { createA2ARouter } from '../a2a/router.js';
import { startLeadsService, type RunningLeadsService } from '../leads/service.js';
import { createFilesRouter } from '../artifacts/files-router.js';
import { renderBrowserMetrics } from '../browser/metrics.js';
import { browserPoolService } from '../browser/service.js';
import { browserSandboxDecision, renderSandboxMetric } from '../browser/sandbox-status.js';
import { artifactStoreService } from '../artifacts/service.js';
import { resolveSecret } from '../auth/secret.js';
import { consoleRouter } from '../console/index.js';

export interface FrontDoors {
  /** Config with anything the doors decided (e.g. the local lead service URL). */
  config: Config;
  httpOptions(rt: Runtime): Promise<HttpAppOptions>;
  describe(): Record<string, unknown>;
  close(): Promise<void>;
}

export async function buildFrontDoors(baseConfig: Config, log: Logger, opts: { workerOnly?: boolean } = {}): Promise<FrontDoors> {
  let x402: X402Payments | undefined;
  // The lead service runs in-process unless LEADS_BASE_URL points at one elsewhere; its URL and an
  // operator key go into the config the homeservices tools read.
  let config = baseConfig;
  let leads: RunningLeadsService | undefined;
  if (!opts.workerOnly && !config.leads.baseUrl) {
    leads = await startLeadsService({ config, log });
    config = { ...config, leads: { ...config.leads, baseUrl: leads.url, apiKey: leads.internalApiKey } };
  }
  return {
    config,
    httpOptions: async (rt) => {
      // One outbox loop per process: the runtime's dispatcher (when it runs here) sends the lead service's notifications too.
      if (leads && rt.webhooks) await leads.shareDispatcher(rt.webhooks);
      // One metrics instance, so every door can add its own lines to /metrics.
      const metrics = new TaskMetrics(rt.engine.events);
      metrics.addCollector(async () => renderBrowserMetrics((await rt.scope.peek(browserPoolService)?.catch(() => undefined))?.pool.stats()));
      // Decided (and logged) now rather than with the first browser task, so /healthz and /metrics say from
      // the start whether Chromium will run sandboxed here, and why.
      const sandbox = browserSandboxDecision(rt.config.browser.sandbox, rt.log);
      metrics.addCollector(() => renderSandboxMetric(sandbox));
      const healthParts = [() => ({ browser_sandbox: { enabled: sandbox.enabled, reason: sandbox.reason } })];
      const options: HttpAppOptions = { metrics, mounts: [], readAuthorizers: [], healthParts };
      // Signed artifact downloads (screenshots, PDFs).
      options.mounts = [
        ...(options.mounts ?? []),
        { path: '/files', router: createFilesRouter({ getStore: () => rt.scope.use(artifactStoreService), secret: resolveSecret(rt.config) }) },
      ];
      // MCP over streamable HTTP and A2A (JSON-RPC), both on the same engine as REST.
      options.mounts = [...(options.mounts ?? []), { path: '/mcp', router: createMcpRouter(rt) }, { path: '/a2a', router: createA2ARouter(rt) }];
      // The operator console (only with ADMIN_TOKEN; it never accepts API keys), with the in-process lead service's data.
      const operatorConsole = consoleRouter({ engine: rt.engine, config: rt.config, leads: leads?.store });
      if (operatorConsole) options.mounts = [...options.mounts, { path: '/console', router: operatorConsole }];
      // x402 (off unless X402_PAY_TO is set): payment gate, wallet sign-in, GET /v1/tasks, settlement.
      x402 = await startX402(rt);
      if (x402) {
        const pay = x402HttpOptions(x402, rt, metrics);
        options.paymentGate = pay.paymentGate;
        options.readAuthorizers = [...(options.readAuthorizers ?? []), ...pay.readAuthorizers];
        options.mounts = [...(options.mounts ?? []), ...pay.mounts];
        options.x402 = pay.x402;
      }
      return options;
    },
    describe: () => ({ ...x402?.describe(), ...(leads ? { leads: leads.url } : {}) }),
    close: async () => {
      await x402?.close();
      await leads?.close();
    },
  };
}
