// Assembles what `serve` exposes besides REST: artifact files, MCP over HTTP, A2A, x402, and the
// lead service (started in-process unless LEADS_BASE_URL points elsewhere). Each piece lives in its
// own module; this file only wires them.
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Runtime } from '../runtime.js';
import type { HttpAppOptions } from './app.js';
import { startLeadsService, type RunningLeadsService } from '../leads/service.js';
import { createFilesRouter } from './files.js';
import { artifactStoreService } from '../storage/service.js';
import { resolveSecret } from '../auth/secret.js';

export interface FrontDoors {
  /** Config with anything the doors decided (e.g. the local lead service URL). */
  config: Config;
  httpOptions(rt: Runtime): Promise<HttpAppOptions>;
  describe(): Record<string, unknown>;
  close(): Promise<void>;
}

export async function buildFrontDoors(baseConfig: Config, log: Logger, opts: { workerOnly?: boolean } = {}): Promise<FrontDoors> {
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
    httpOptions: async (rt) => ({
      // Signed artifact downloads (screenshots, PDFs).
      mounts: [{ path: '/files', router: createFilesRouter({ getStore: () => rt.scope.use(artifactStoreService), secret: resolveSecret(rt.config) }) }],
    }),
    describe: () => (leads ? { leads: leads.url } : {}),
    close: async () => {
      await leads?.close();
    },
  };
}
