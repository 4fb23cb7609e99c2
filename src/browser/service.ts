// The browser pool as a shared service: the guarded proxy starts first (Chromium's command line names its
// port), then the pool. Disposing closes every context and Chromium itself, then the proxy.
import type { Logger } from '../logger.js';
import { netGuardService } from '../net/guard.js';
import { defineService } from '../registry/services.js';
import { findChromium } from './chromium-path.js';
import { GuardedProxy, type AddressGuard } from './guarded-proxy.js';
import { BrowserPool } from './pool.js';
import { browserSandbox, type BrowserSandbox } from './sandbox.js';
import type { SandboxSetting } from './sandbox-decision.js';
import { browserSandboxDecision } from './sandbox-status.js';

export interface BrowserRuntime {
  pool: BrowserPool;
  proxy: GuardedProxy;
  sandbox: BrowserSandbox;
}

export interface BrowserRuntimeOptions {
  executablePath: string;
  /**
   * CHROMIUM_SANDBOX and CHROMIUM_SANDBOX_UID: Chromium with its sandbox where it can work ('auto'), always
   * ('on') or never ('off', also when omitted), as that uid when this process is root (sandbox-decision.ts).
   */
  sandbox?: { setting: SandboxSetting; uid: number };
  concurrency: number;
  guard: AddressGuard;
  log: Logger;
  prepared?: number;
  recycleAfterPages?: number;
  holdMs?: number;
}

export async function startBrowserRuntime(opts: BrowserRuntimeOptions): Promise<BrowserRuntime> {
  const decision = browserSandboxDecision(opts.sandbox ?? { setting: 'off', uid: 0 }, opts.log);
  if (decision.impossible) throw new Error(`CHROMIUM_SANDBOX=on cannot work here: ${decision.reason}`);
  const sandbox = browserSandbox(opts.executablePath, decision);
  const proxy = await GuardedProxy.start(opts.guard, opts.log.child({ component: 'browser-proxy' }));
  const pool = new BrowserPool({
    executablePath: sandbox.executablePath,
    sandbox: sandbox.enabled,
    concurrency: opts.concurrency,
    proxyUrl: proxy.url,
    proxyCredentials: proxy.credentials,
    log: opts.log,
    ...(opts.prepared !== undefined ? { prepared: opts.prepared } : {}),
    ...(opts.recycleAfterPages !== undefined ? { recycleAfterPages: opts.recycleAfterPages } : {}),
    ...(opts.holdMs !== undefined ? { holdMs: opts.holdMs } : {}),
  });
  return { pool, proxy, sandbox };
}

export async function stopBrowserRuntime(runtime: BrowserRuntime): Promise<void> {
  await runtime.pool.close();
  await runtime.proxy.close();
  runtime.sandbox.remove();
}

export const browserPoolService = defineService<BrowserRuntime>({
  name: 'browser-pool',
  async create({ config, log, use }) {
    const runtime = await startBrowserRuntime({
      executablePath: findChromium(config.browser.chromiumPath),
      concurrency: config.browser.concurrency,
      sandbox: config.browser.sandbox,
      guard: await use(netGuardService),
      log,
    });
    // Launch now so the first task does not pay for it; a failure shows up on that task instead.
    void runtime.pool.warm().catch(() => undefined);
    return runtime;
  },
  dispose: stopBrowserRuntime,
});
