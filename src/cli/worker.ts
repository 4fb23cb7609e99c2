// `agent-utility worker`: workers only (scale-out). Deliberately imports no HTTP, MCP or lead-service
// code: a worker's start-up time is the time before it drains anything, and those imports cost ~0.8 s CPU.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { Config } from '../config.js';
import { lowerCpuPriority } from '../engine/process-priority.js';
import { createLogger } from '../logger.js';
import { createRuntime } from '../runtime.js';
import { onShutdown } from './shutdown.js';

export async function runWorker(config: Config, args: string[]): Promise<'running'> {
  const { values } = parseArgs({ args, options: { tools: { type: 'string' } } });
  // Since the process started: the worker's start-up is the time before it drains anything.
  const importedMs = Math.round(performance.now());
  const tools = values.tools
    ?.split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const log = createLogger(config.logLevel);
  // Before the runtime starts its threads (the worker pool's, Chromium's pipes): they inherit the priority.
  lowerCpuPriority(config.engine.nice);
  const rt = await createRuntime(config, { log, workers: true, ...(tools ? { workerTools: tools } : {}) });
  // The engine's timers do not hold the process open and SQLite keeps no socket: without this a worker
  // on SQLite would exit as soon as it started.
  const keepAlive = setInterval(() => undefined, 2 ** 30);
  onShutdown(log, async () => {
    clearInterval(keepAlive);
    await rt.close();
  });
  // Logged once the signal handlers are in: whoever waits for this line may stop the worker at once.
  const cpu = process.cpuUsage();
  log.info('agent-utility worker started', {
    owner: rt.engine.workerOwner,
    tools: tools ?? 'all',
    store: rt.store.dialect,
    nice: os.getPriority(),
    startup: { importedMs, readyMs: Math.round(performance.now()), cpuMs: Math.round((cpu.user + cpu.system) / 1000) },
  });
  return 'running';
}
