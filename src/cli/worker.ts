// `agent-utility worker`: workers only (scale-out). Deliberately imports no HTTP, MCP or lead-service
// code: a worker's start-up time is the time before it drains anything, and those imports cost ~0.8 s CPU.
import { parseArgs } from 'node:util';
import type { Config } from '../config.js';
import { createLogger } from '../logger.js';
import { createRuntime } from '../runtime.js';
import { onShutdown } from './shutdown.js';

export async function runWorker(config: Config, args: string[]): Promise<'running'> {
  const { values } = parseArgs({ args, options: { tools: { type: 'string' } } });
  const tools = values.tools?.split(',').map((t) => t.trim()).filter(Boolean);
  const log = createLogger(config.logLevel);
  const rt = await createRuntime(config, { log, workers: true, ...(tools ? { workerTools: tools } : {}) });
  log.info('agent-utility worker started', { owner: rt.engine.workerOwner, tools: tools ?? 'all', store: rt.store.dialect });
  // The engine's timers do not hold the process open and SQLite keeps no socket: without this a worker
  // on SQLite would exit as soon as it started.
  const keepAlive = setInterval(() => undefined, 2 ** 30);
  onShutdown(log, async () => {
    clearInterval(keepAlive);
    await rt.close();
  });
  return 'running';
}
