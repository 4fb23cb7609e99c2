// Starts the lead service: store (seeded with the demo directory when empty), mailer, notification
// dispatcher and the HTTP app on its own port. `agent-utility serve` and `agent-utility leads serve` call this.
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { httpClientService } from '../net/http-client.js';
import { ServiceScope } from '../registry/services.js';
import { createLeadsApp, type LeadsAppDeps } from './app.js';
import { newApiKey } from './auth.js';
import { demoPros } from './demo-data.js';
import { DeliveryDispatcher, type DispatcherOptions, type WebhookPoster } from './dispatcher.js';
import { createMailer, type Mailer } from './mailer.js';
import { openLeadStore } from './open-store.js';
import type { LeadStore } from './store.js';
import { webhookPosterFor } from './webhook-poster.js';
import { createLimitedServer } from '../web/http-server-limits.js';

export interface StartLeadsOptions {
  config: Config;
  log: Logger;
  /** Listen port; default config.leads.port (0 picks a free one). */
  port?: number;
  /** Listen host; default config.host. */
  host?: string;
  /** Test and tuning hooks. */
  overrides?: Partial<Pick<LeadsAppDeps, 'limits' | 'registrationLimits' | 'retry' | 'now'>> & {
    dispatcher?: Partial<Omit<DispatcherOptions, 'store' | 'mailer' | 'postWebhook' | 'log'>>;
    postWebhook?: WebhookPoster;
    mailer?: Mailer;
  };
}

export interface RunningLeadsService {
  /** Where it listens, e.g. http://127.0.0.1:8081. */
  url: string;
  /** An operator key (no quota) for the homeservices tools: LEADS_API_KEY, or one generated for this run. */
  internalApiKey: string;
  store: LeadStore;
  /** Resolves when running searches and background mail sends are done (tests, orderly shutdown). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** Seeds the deterministic demo directory when no professional exists at all. */
export async function ensureDirectory(store: LeadStore, log: Logger, now = Date.now()): Promise<void> {
  const stats = await store.directoryStats();
  if (stats.total > 0) return;
  const pros = demoPros();
  await store.upsertPros(pros, { replace: false, now });
  log.info('lead directory was empty: seeded the demo dataset (fictional businesses, nothing real is contacted)', { pros: pros.length });
}

export async function startLeadsService(opts: StartLeadsOptions): Promise<RunningLeadsService> {
  const { config } = opts;
  const log = opts.log.child({ component: 'leads' });
  const o = opts.overrides ?? {};
  const store = await openLeadStore(config, log);
  const scope = new ServiceScope(config, log);
  const mailer = o.mailer ?? createMailer({ smtpUrl: config.leads.smtpUrl, outboxDir: path.join(config.dataDir, 'outbox'), from: config.leads.mailFrom });
  try {
    await ensureDirectory(store, log);
    const postWebhook = o.postWebhook ?? webhookPosterFor(await scope.use(httpClientService));
    const dispatcher = new DeliveryDispatcher({ store, mailer, postWebhook, log, ...o.dispatcher });
    const internalApiKey = config.leads.apiKey ?? newApiKey().key;
    let url = '';
    const leads = createLeadsApp({
      store,
      mailer,
      log,
      publicUrl: () => config.leads.publicUrl ?? url,
      operatorKeys: [internalApiKey],
      onRequestCreated: () => dispatcher.wake(),
      bodyLimitBytes: Math.min(config.http.bodyLimitBytes, 256 * 1024),
      trustProxy: config.http.trustProxy,
      ...(o.limits ? { limits: o.limits } : {}),
      ...(o.registrationLimits ? { registrationLimits: o.registrationLimits } : {}),
      ...(o.retry ? { retry: o.retry } : {}),
      ...(o.now ? { now: o.now } : {}),
    });
    const server = createLimitedServer(config.http.server, leads.app);
    const host = opts.host ?? config.host;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? config.leads.port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const addr = server.address() as AddressInfo;
    const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    url = `http://${shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost === '[::]' ? '[::1]' : shownHost}:${addr.port}`;
    dispatcher.start();
    await leads.searches.resume();
    log.info('lead service listening', { url, mail: mailer.destination, operatorKey: config.leads.apiKey ? 'LEADS_API_KEY' : 'generated' });

    let closed: Promise<void> | undefined;
    return {
      url,
      internalApiKey,
      store,
      idle: () => leads.idle(),
      close: () =>
        (closed ??= (async () => {
          await new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeIdleConnections();
            // Requests still running after a grace period are cut rather than holding shutdown forever.
            setTimeout(() => server.closeAllConnections(), 5_000).unref();
          });
          await leads.idle();
          await dispatcher.stop();
          mailer.close();
          await scope.close();
          await store.close();
        })()),
    };
  } catch (err) {
    mailer.close();
    await scope.close();
    await store.close();
    throw err;
  }
}
