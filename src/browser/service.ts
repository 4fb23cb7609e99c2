// The browser pool as a shared service: the guarded proxy starts first (Chromium's command line names its
// port), then the pool. Disposing closes every context and Chromium itself, then the proxy.
import type { Logger } from '../logger.js';
import { netGuardService } from '../net/guard.js';
import { defineService } from '../registry/services.js';
import { findChromium } from './chromium-path.js';
import { GuardedProxy, type AddressGuard } from './guarded-proxy.js';
import { BrowserPool } from './pool.js';

export interface BrowserRuntime {
  pool: BrowserPool;
  proxy: GuardedProxy;
}

export interface BrowserRuntimeOptions {
  executablePath: string;
  concurrency: number;
  guard: AddressGuard;
  log: Logger;
  prepared?: number;
  recycleAfterPages?: number;
}

export async function startBrowserRuntime(opts: BrowserRuntimeOptions): Promise<BrowserRuntime> {
  const proxy = await GuardedProxy.start(opts.guard, opts.log.child({ component: 'browser-proxy' }));
  const pool = new BrowserPool({
    executablePath: opts.executablePath,
    concurrency: opts.concurrency,
    proxyUrl: proxy.url,
    proxyCredentials: proxy.credentials,
    log: opts.log,
    ...(opts.prepared !== undefined ? { prepared: opts.prepared } : {}),
    ...(opts.recycleAfterPages !== undefined ? { recycleAfterPages: opts.recycleAfterPages } : {}),
  });
  return { pool, proxy };
}

export async function stopBrowserRuntime(runtime: BrowserRuntime): Promise<void> {
  await runtime.pool.close();
  await runtime.proxy.close();
}

export const browserPoolService = defineService<BrowserRuntime>({
  name: 'browser-pool',
  async create({ config, log, use }) {
    const runtime = await startBrowserRuntime({
      executablePath: findChromium(config.browser.chromiumPath),
      concurrency: config.browser.concurrency,
      guard: await use(netGuardService),
      log,
    });
    // Launch now so the first task does not pay for it; a failure shows up on that task instead.
    void runtime.pool.warm().catch(() => undefined);
    return runtime;
  },
  dispose: stopBrowserRuntime,
});
