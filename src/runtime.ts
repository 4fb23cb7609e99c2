// Wires one process: config → store → registry → services → engine. Every entry point (serve, worker,
// mcp, tests) builds its runtime here, so they all run the same engine the same way.
import type { Config } from './config.js';
import { Engine } from './engine/engine.js';
import { createLogger, type Logger } from './logger.js';
import { ToolRegistry } from './registry/registry.js';
import { ServiceScope } from './registry/services.js';
import { openStore } from './db/tasks/open-store.js';
import type { TaskStore } from './store/port.js';
import { tools as allTools } from '../tools/index.js';
import type { AnyTool } from './registry/define-tool.js';
import { crawlResultsLinkQuery } from './auth/results-link.js';
import { resolveSecret } from './auth/secret.js';
import { createChildTasks } from './engine/child-tasks.js';
import { childTasksService } from './registry/child-tasks.js';
import { Webhooks } from './webhooks/service.js';
import { lazyGuardedPoster } from './webhooks/post.js';
import { closeRequestLimits } from './web/request-limits-registry.js';

export interface Runtime {
  config: Config;
  log: Logger;
  store: TaskStore;
  registry: ToolRegistry;
  scope: ServiceScope;
  engine: Engine;
  /** Webhook secrets, delivery log and dispatcher; undefined for a store without SQL (some tests). */
  webhooks: Webhooks | undefined;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  log?: Logger;
  workers?: boolean;
  workerTools?: readonly string[];
  /** A session that runs the tasks it creates itself (EngineOptions.ownTasks): stdio MCP, embedded commands. */
  ownTasks?: boolean;
  tools?: readonly AnyTool[];
  store?: TaskStore;
}

export async function createRuntime(config: Config, opts: RuntimeOptions = {}): Promise<Runtime> {
  const log = opts.log ?? createLogger(config.logLevel);
  const store = opts.store ?? (await openStore(config, log));
  const registry = new ToolRegistry(opts.tools ?? allTools);
  if (opts.workerTools) for (const t of opts.workerTools) registry.get(t);
  const scope = new ServiceScope(config, log);
  const engine = new Engine({
    store,
    registry,
    scope,
    config,
    log,
    ...(opts.workers !== undefined ? { workers: opts.workers } : {}),
    ...(opts.workerTools ? { workerTools: opts.workerTools } : {}),
    ...(opts.ownTasks ? { ownTasks: true } : {}),
  });
  // Tools that fan out (site.crawl) create their children through the engine; their results link is a
  // read-only signed link, as a batch's is (a poll token in a URL would also cancel the crawl).
  const secret = resolveSecret(config);
  scope.provide(
    childTasksService,
    createChildTasks(
      engine,
      async (parentTaskId) => `/v1/crawls/${parentTaskId}/results?${new URLSearchParams({ format: 'jsonl', ...crawlResultsLinkQuery(secret, parentTaskId) })}`,
    ),
  );
  engine.start();
  // Before any task is created: a session's task written before its lease would look abandoned.
  await engine.sessionReady();
  const sql = Webhooks.sqlOf(store);
  const webhooks = sql ? new Webhooks(sql, store, config, log) : undefined;
  // Deliveries leave from every process that runs tasks (serve, worker). The dispatcher looks at the
  // outbox on a short timer rather than at every settle: most tasks have no webhook, and a wake per
  // settle would add outbox queries to the busiest path for nothing.
  if (webhooks && (opts.workers ?? config.engine.workers)) {
    webhooks.startDispatcher(lazyGuardedPoster(async () => scope.use((await import('./net/http-client.js')).httpClientService)));
  }
  let closed = false;
  return {
    config,
    log,
    store,
    registry,
    scope,
    engine,
    webhooks,
    async close() {
      if (closed) return;
      closed = true;
      await webhooks?.stop();
      await engine.stop(config.engine.shutdownGraceMs);
      await scope.close();
      // The rate limiters' own PostgreSQL pool, if the front doors made one (web/request-limits-registry.ts).
      await closeRequestLimits(store);
      await store.close();
    },
  };
}
