// Webhooks for one process: the outbox store on the task store's connection, the per-key secrets the
// REST routes read and rotate, the delivery log, and (where workers run) the dispatcher.
import type { Config } from '../config.js';
import type { Sql } from '../db/sql.js';
import { WebhookStore, type DeliveryLogEntry, type KeySecrets } from '../db/webhooks/webhook-store.js';
import type { Logger } from '../logger.js';
import type { TaskStore } from '../store/port.js';
import { WebhookDispatcher, type FixedMessageSender } from './dispatcher.js';
import type { WebhookPoster } from './post.js';
import { signingSecrets } from './secrets.js';
import { newWebhookSecret } from './signature.js';

export interface SecretView {
  secret: string;
  created_at: string;
  /** The secret a rotation replaced, still signing (a second signature) until this time. */
  previous_valid_until: string | null;
}

export class Webhooks {
  readonly store: WebhookStore;
  private dispatcher: WebhookDispatcher | undefined;

  constructor(
    db: Sql,
    private readonly tasks: TaskStore,
    private readonly config: Config,
    private readonly log: Logger,
  ) {
    this.store = new WebhookStore(db);
  }

  /** The store's connection when it is one of ours (a store without SQL has no webhooks). */
  static sqlOf(store: TaskStore): Sql | undefined {
    const db = (store as { db?: Partial<Sql> }).db;
    return typeof db?.all === 'function' && typeof db.transaction === 'function' ? (db as Sql) : undefined;
  }

  async secret(keyId: string): Promise<SecretView> {
    return this.view(await this.store.secretsOf(keyId, newWebhookSecret, Date.now()));
  }

  async rotate(keyId: string): Promise<SecretView> {
    const now = Date.now();
    return this.view(await this.store.rotateSecret(keyId, newWebhookSecret(), now + this.config.webhooks.secretGraceMs, now));
  }

  deliveries(subjectId: string, keyId: string): Promise<DeliveryLogEntry[]> {
    return this.store.deliveriesOf(subjectId, keyId);
  }

  /** /metrics lines: outbox messages by status (pending = the backlog); nothing while the store is down. */
  async metricsText(): Promise<string> {
    const counts = await this.store.countsByStatus().catch(() => undefined);
    if (!counts) return '';
    const by = new Map(counts.map((c) => [c.status, c.count]));
    return [
      '# HELP agent_utility_webhook_outbox Webhook messages in the outbox by status (pending is the delivery backlog).',
      '# TYPE agent_utility_webhook_outbox gauge',
      ...['pending', 'delivered', 'failed'].map((status) => `agent_utility_webhook_outbox{status="${status}"} ${by.get(status) ?? 0}`),
    ].join('\n');
  }

  /** Starts delivering from this process (serve and worker; not a client-only process). */
  startDispatcher(post: WebhookPoster): void {
    if (this.dispatcher) return;
    const w = this.config.webhooks;
    this.dispatcher = new WebhookDispatcher({
      tasks: this.tasks,
      webhooks: this.store,
      post,
      log: this.log,
      publicUrl: this.config.publicUrl,
      maxAttempts: w.maxAttempts,
      baseBackoffMs: w.baseBackoffMs,
      maxBackoffMs: w.maxBackoffMs,
      timeoutMs: w.timeoutMs,
      leaseMs: w.leaseMs,
      pollIntervalMs: Math.min(1_000, this.config.engine.pollIntervalMs),
      retentionMs: this.config.engine.retentionMs,
    });
    this.dispatcher.start();
  }

  /**
   * The in-process lead service's notifications are sent by this process's dispatcher too (one loop);
   * false when this process runs none (then the lead service keeps its own).
   */
  addLeadSender(send: FixedMessageSender): boolean {
    if (!this.dispatcher) return false;
    this.dispatcher.addLeadSender(send);
    return true;
  }

  /** A task settled here: look at the outbox now rather than at the next timed pass. */
  wake(): void {
    this.dispatcher?.wake();
  }

  async stop(): Promise<void> {
    await this.dispatcher?.stop();
    this.dispatcher = undefined;
  }

  private view(s: KeySecrets): SecretView {
    const now = Date.now();
    const previous = signingSecrets(s, now).length > 1 ? s.previousUntil : null;
    return {
      secret: s.secret,
      created_at: new Date(s.createdAt).toISOString(),
      previous_valid_until: previous === null ? null : new Date(previous).toISOString(),
    };
  }
}
