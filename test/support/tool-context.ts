// Builds a real ToolContext for calling a tool's run() directly in tests, with a config made from
// env-style overrides and a ServiceScope that the test closes.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { loadConfig, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { ServiceScope } from '../../src/registry/services.js';
import type { ToolContext } from '../../src/registry/define-tool.js';

export interface TestToolContext extends ToolContext {
  scope: ServiceScope;
  abort(): void;
  close(): Promise<void>;
}

export function testConfig(env: Record<string, string | undefined> = {}): Config {
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'au-test-'));
  return loadConfig({ LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', SECRET: 'x'.repeat(40), ...env, DATA_DIR: dataDir });
}

export function makeToolContext(env: Record<string, string | undefined> = {}, taskId = `task_test${Math.random().toString(36).slice(2, 10)}`): TestToolContext {
  const config = testConfig(env);
  const log = createLogger(config.logLevel);
  const scope = new ServiceScope(config, log);
  const controller = new AbortController();
  return {
    taskId,
    idempotencyKey: taskId,
    attempt: 1,
    signal: controller.signal,
    config,
    log,
    use: (def) => scope.use(def),
    progress: () => undefined,
    scope,
    abort: () => controller.abort(new Error('cancelled by test')),
    close: () => scope.close(),
  };
}
