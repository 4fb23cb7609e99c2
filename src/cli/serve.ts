// `agent-utility serve` (API node, with workers unless --no-workers) and `agent-utility worker`.
import { parseArgs } from 'node:util';
import type { Config } from '../config.js';
import { createLogger } from '../logger.js';
import { createRuntime, type Runtime } from '../runtime.js';
import { startHttpServer } from '../http/server.js';
import { buildFrontDoors } from '../http/front-doors.js';
import { CliUsageError } from './usage.js';

function onShutdown(log: ReturnType<typeof createLogger>, close: () => Promise<void>): void {
  let closing = false;
  const handler = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info('shutting down', { signal });
    close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error('shutdown failed', { err });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => handler('SIGINT'));
  process.on('SIGTERM', () => handler('SIGTERM'));
}

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
  log.info('agent-utility is serving', {
    url: server.url,
    docs: `${server.url}/docs`,
    store: rt.store.dialect,
    workers: rt.engine.hasWorkers,
    tools: rt.registry.names.length,
    ...doors.describe(),
  });
  onShutdown(log, async () => {
    await server.close();
    await rt.close();
    await doors.close();
  });
  return 'running';
}

export async function runWorker(config: Config, args: string[]): Promise<'running'> {
  const { values } = parseArgs({ args, options: { tools: { type: 'string' } } });
  const tools = values.tools?.split(',').map((t) => t.trim()).filter(Boolean);
  const log = createLogger(config.logLevel);
  const doors = await buildFrontDoors(config, log, { workerOnly: true });
  const rt = await createRuntime(doors.config, { log, workers: true, ...(tools ? { workerTools: tools } : {}) });
  log.info('agent-utility worker started', { owner: rt.engine.workerOwner, tools: tools ?? 'all', store: rt.store.dialect });
  // The engine's timers do not hold the process open and SQLite keeps no socket: without this a worker
  // on SQLite would exit as soon as it started.
  const keepAlive = setInterval(() => undefined, 2 ** 30);
  onShutdown(log, async () => {
    clearInterval(keepAlive);
    await rt.close();
    await doors.close();
  });
  return 'running';
}
