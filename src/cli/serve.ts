// `agent-utility serve` (API node, with workers unless --no-workers).
import { parseArgs } from 'node:util';
import type { Config } from '../config.js';
import { createLogger } from '../logger.js';
import { createRuntime, type Runtime } from '../runtime.js';
import { startHttpServer } from '../http/server.js';
import { buildFrontDoors } from '../server/front-doors.js';
import { onShutdown } from './shutdown.js';
import { CliUsageError } from './usage.js';

function parsePort(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new CliUsageError(`--port must be 0–65535 (got ${v}).`);
  return n;
}

export async function runServe(baseConfig: Config, args: string[]): Promise<'running'> {
  const { values } = parseArgs({
    args,
    options: { 'no-workers': { type: 'boolean', default: false }, port: { type: 'string' }, host: { type: 'string' } },
  });
  const port = parsePort(values.port);
  const config: Config = {
    ...baseConfig,
    ...(port !== undefined ? { port } : {}),
    ...(values.host ? { host: values.host } : {}),
  };
  const log = createLogger(config.logLevel);
  const doors = await buildFrontDoors(config, log);
  const rt: Runtime = await createRuntime(doors.config, { log, workers: !values['no-workers'] && config.engine.workers });
  const server = await startHttpServer(rt, await doors.httpOptions(rt));
  onShutdown(log, async () => {
    await server.close();
    // The doors first: x402 settlement ends its transfers under way, records them and hands its lease back
    // through the store, so the store must still be open (closed first, the lease stayed held until its TTL).
    await doors.close();
    await rt.close();
  });
  // Logged once the signal handlers are in: whoever waits for this line may stop the service at once.
  log.info('agent-utility is serving', {
    url: server.url,
    docs: `${server.url}/docs`,
    store: rt.store.dialect,
    workers: rt.engine.hasWorkers,
    tools: rt.registry.names.length,
    ...doors.describe(),
  });
  return 'running';
}
