// Drains the notification outbox: claims due deliveries with a lease, sends each (e-mail or signed
// webhook), and records the outcome. Failures are retried with exponential backoff until the channel's
// attempt budget is spent. It runs on the engine's WakeLoop: correctness comes from the outbox table and
// leases (at least once); wake() only makes it prompt.
import { WakeLoop } from '../engine/wake-loop.js';
import type { Logger } from '../logger.js';
import type { Mailer } from './mailer.js';
import type { LeadStore } from './store.js';
import type { DeliveryRecord } from './types.js';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, signWebhook } from './webhook-signature.js';
import { backoffMs, PermanentDeliveryError, type WebhookPoster } from '../webhooks/post.js';

export type { WebhookPoster };

export interface DispatcherOptions {
  store: LeadStore;
  mailer: Mailer;
  postWebhook: WebhookPoster;
  log: Logger;
  now?: () => number;
  /** First retry delay; doubles each attempt up to maxBackoffMs. */
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  /** Longest a delivery may stay claimed before another claimer may take it over (crash recovery). */
  leaseMs?: number;
  webhookTimeoutMs?: number;
  /** How often the outbox is looked at even without a wake(). */
  pollIntervalMs?: number;
  batchSize?: number;
  /** Requester details older than this are erased. */
  retentionMs?: number;
}

/** A failed delivery that may be retried. */
export class DeliveryError extends Error {}
// Permanent failures and the backoff schedule are the task webhooks' own (src/webhooks/post.ts): one
// retry policy and one guarded poster for every outbox of the service.
export { backoffMs, PermanentDeliveryError };

export class DeliveryDispatcher {
  private readonly o: Required<Omit<DispatcherOptions, 'now'>> & { now: () => number };
  private readonly loop: WakeLoop;
  private lastErase = 0;

  constructor(opts: DispatcherOptions) {
    this.o = {
      now: Date.now,
      baseBackoffMs: 30_000,
      maxBackoffMs: 3_600_000,
      leaseMs: 60_000,
      webhookTimeoutMs: 10_000,
      pollIntervalMs: 5_000,
      batchSize: 16,
      retentionMs: 30 * 86_400_000,
      ...opts,
    };
    this.loop = new WakeLoop({
      pass: () => this.drain(),
      pollIntervalMs: this.o.pollIntervalMs,
      dueInMs: async () => {
        const due = await this.o.store.nextDeliveryDueAt();
        return due === undefined ? undefined : due - this.o.now();
      },
      onError: (err, during) => this.o.log.error(during === 'pass' ? 'delivery dispatcher failed' : 'delivery dispatcher could not schedule', { err }),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** Look at the outbox now (called after a request is written). */
  wake(): void {
    this.loop.wake();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.loop.isStopped) return;
      const batch = await this.o.store.claimDueDeliveries(this.o.now(), this.o.leaseMs, this.o.batchSize);
      if (batch.length === 0) break;
      await Promise.all(batch.map((d) => this.deliver(d)));
    }
    if (this.o.now() - this.lastErase > 3_600_000) {
      this.lastErase = this.o.now();
      const erased = await this.o.store.eraseRequesterDetails(this.o.now() - this.o.retentionMs);
      if (erased > 0) this.o.log.info('erased requester details of old requests', { count: erased });
    }
  }

  private async deliver(d: DeliveryRecord): Promise<void> {
    const attempts = d.attempts + 1;
    try {
      if (d.channel === 'email') await this.sendEmail(d);
      else await this.sendWebhook(d);
      await this.o.store.markDelivered(d.id, this.o.now());
      this.o.log.info('notification delivered', { delivery: d.id, request: d.requestId, channel: d.channel, attempts });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (attempts >= d.maxAttempts || err instanceof PermanentDeliveryError) {
        await this.o.store.markFailed(d.id, attempts, message, this.o.now());
        this.o.log.warn('notification failed for good', { delivery: d.id, request: d.requestId, channel: d.channel, attempts, error: message });
      } else {
        const next = this.o.now() + backoffMs(attempts, this.o.baseBackoffMs, this.o.maxBackoffMs);
        await this.o.store.markRetry(d.id, attempts, next, message, this.o.now());
        this.o.log.info('notification will be retried', { delivery: d.id, channel: d.channel, attempts, error: message });
      }
    }
  }

  private async sendEmail(d: DeliveryRecord): Promise<void> {
    const subject = String(d.payload.subject ?? '');
    const text = String(d.payload.text ?? '');
    await this.o.mailer.send({ to: d.target.address, subject, text });
  }

  private async sendWebhook(d: DeliveryRecord): Promise<void> {
    if (!d.target.secret) throw new PermanentDeliveryError('webhook has no signing secret');
    const body = JSON.stringify(d.payload);
    const timestamp = Math.floor(this.o.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': 'agent-utility-leads/1',
      'x-leads-event': String(d.payload.type ?? 'request.created'),
      'x-leads-delivery': d.id,
      [TIMESTAMP_HEADER.toLowerCase()]: String(timestamp),
      [SIGNATURE_HEADER.toLowerCase()]: signWebhook(d.target.secret, timestamp, body),
    };
    const { status } = await this.o.postWebhook(d.target.address, { headers, body, signal: AbortSignal.timeout(this.o.webhookTimeoutMs) });
    if (status >= 200 && status < 300) return;
    // 410 Gone is the receiver saying "stop"; everything else may be temporary.
    if (status === 410) throw new PermanentDeliveryError('webhook answered HTTP 410 Gone');
    throw new DeliveryError(`webhook answered HTTP ${status}`);
  }
}
