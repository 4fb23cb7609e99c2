// The browser tools of one build (its dist folder) with a task context, run in this process: a bench can
// load two builds, or one build under two settings, side by side and run their tools directly.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** browser.screenshot and browser.markdown of the build in `dist`, its data in `dataDir`, `env` added to its config. */
export async function loadBrowserTools(dist, dataDir, env = {}) {
  const imp = (p) => import(pathToFileURL(path.join(dist, p)).href);
  const [{ default: screenshot }, { default: markdown }, { loadConfig }, { createLogger }, { ServiceScope }] = await Promise.all([
    imp('tools/browser.screenshot.js'),
    imp('tools/browser.markdown.js'),
    imp('src/config.js'),
    imp('src/logger.js'),
    imp('src/registry/services.js'),
  ]);
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    NETWORK_ALLOWLIST: '127.0.0.1/32',
    BROWSER_CONCURRENCY: '1',
    SECRET: 'b'.repeat(40),
    ...env,
  });
  const scope = new ServiceScope(config, createLogger('silent'));
  const ctx = taskContexts(config, scope, createLogger, 'task_toolbench');
  const run = (tool, input) => tool.run(ctx(), tool.input.parse(input));
  return { screenshot, markdown, run, scope, close: () => scope.close() };
}

/**
 * Makes one task context after another for running a tool directly: its own task id each time, the build's
 * config, silent logs and services from `scope`. `createLogger` comes from the same build as the scope.
 */
export function taskContexts(config, scope, createLogger, prefix) {
  let n = 0;
  return () => {
    const id = `${prefix}${++n}`;
    return {
      taskId: id,
      idempotencyKey: id,
      attempt: 1,
      signal: new AbortController().signal,
      config,
      log: createLogger('silent'),
      use: (d) => scope.use(d),
      progress: () => {},
    };
  };
}
