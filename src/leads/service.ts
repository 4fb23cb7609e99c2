// Starts the lead service: store (seeded with the demo directory when empty), mailer, the sender of its
// notifications and the HTTP app on its own port. Notifications leave from the service's one outbox
// (webhook_outbox): a dispatcher loop of its own until shareDispatcher() hands them to the runtime's. `agent-utility serve` and `agent-utility leads serve` call this.
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { httpClientService } from '../net/http-client.js';
import { ServiceScope } from '../registry/services.js';
import { createLeadsApp, type LeadsAppDeps } from './app.js';
import { newApiKey } from './auth.js';
import { demoPros } from './demo-data.js';
import { WebhookStore } from '../db/webhooks/webhook-store.js';
import { WebhookDispatcher, type WebhookDispatcherOptions } from '../webhooks/dispatcher.js';
import type { WebhookPoster } from '../webhooks/post.js';
import type { Webhooks } from '../webhooks/service.js';
import { startRequesterErasure } from './erasure.js';
import { leadNotificationSender } from './outbox-sender.js';
import { createMailer, type Mailer } from './mailer.js';
import { sameOutbox } from './db/lead-store.js';
import { openLeadStore } from './open-store.js';
import type { SqlLeadStore } from './db/lead-store.js';
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
    dispatcher?: Partial<Pick<WebhookDispatcherOptions, 'baseBackoffMs' | 'maxBackoffMs' | 'leaseMs' | 'timeoutMs' | 'pollIntervalMs' | 'now'>>;
    postWebhook?: WebhookPoster;
    mailer?: Mailer;
  };
}

export interface RunningLeadsService {
  /** Where it listens, e.g. http://127.0.0.1:8081. */
  url: string;
  /** An operator key (no quota) for the homeservices tools: LEADS_API_KEY, or one generated for this run. */
  internalApiKey: string;
  store: SqlLeadStore;
  /** Resolves when running searches and background mail sends are done (tests, orderly shutdown). */
  idle(): Promise<void>;
  /**
   * Hands the notifications to the runtime's outbox dispatcher when it drains the same outbox (same
   * database), so the process runs one loop; answers whether it did.
   */
  shareDispatcher(webhooks: Webhooks): Promise<boolean>;
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
    const w = config.webhooks;
    const sender = leadNotificationSender({ mailer, postWebhook, webhookTimeoutMs: o.dispatcher?.timeoutMs ?? w.timeoutMs });
    // Lead messages only (no task store here): the runtime's dispatcher, where there is one, sends the rest.
    let dispatcher: { wake(): void; stop(): Promise<void> } = new WebhookDispatcher({
      webhooks: new WebhookStore(store.db),
      leads: sender,
      post: postWebhook,
      log,
      publicUrl: '',
      maxAttempts: w.maxAttempts,
      baseBackoffMs: w.baseBackoffMs,
      maxBackoffMs: w.maxBackoffMs,
      timeoutMs: w.timeoutMs,
      leaseMs: w.leaseMs,
      pollIntervalMs: 1_000,
      ...o.dispatcher,
    });
    const ownDispatcher = dispatcher as WebhookDispatcher;
    const stopErasure = startRequesterErasure(store, log);
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
    ownDispatcher.start();
    await leads.searches.resume();
    log.info('lead service listening', { url, mail: mailer.destination, operatorKey: config.leads.apiKey ? 'LEADS_API_KEY' : 'generated' });

    let closed: Promise<void> | undefined;
    return {
      url,
      internalApiKey,
      store,
      idle: () => leads.idle(),
      shareDispatcher: async (webhooks) => {
        if (!sameOutbox(webhooks.store.db, store.db) || !webhooks.addLeadSender(sender)) return false;
        await ownDispatcher.stop();
        dispatcher = { wake: () => webhooks.wake(), stop: async () => undefined };
        log.info('lead notifications are sent by the runtime outbox dispatcher');
        return true;
      },
      close: () =>
        (closed ??= (async () => {
          await new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeIdleConnections();
            // Requests still running after a grace period are cut rather than holding shutdown forever.
            setTimeout(() => server.closeAllConnections(), 5_000).unref();
          });
          await leads.idle();
          stopErasure();
          await dispatcher.stop();
          await ownDispatcher.stop();
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
