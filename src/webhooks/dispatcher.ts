// Drains the service's one outbox: claims due messages under a lease, signs and POSTs each (or hands a
// lead notification to the lead service's sender: its e-mail, or its webhook signed the lead way),
// records every attempt, and retries with exponential backoff and jitter until the attempt budget is
// spent. It also queues batch.completed for batches whose tasks have all finished. Correctness lives in the tables
// (rows written with the state change, claimed under leases: at least once, whatever process dies);
// wake() and the timed pass only make it prompt.
import type { WebhookStore, OutboxMessage, SubjectKind } from '../db/webhooks/webhook-store.js';
import { WakeLoop } from '../engine/wake-loop.js';
import { newId } from '../ids.js';
import type { Logger } from '../logger.js';
import type { TaskStore } from '../store/port.js';
import { buildPayload } from './payload.js';
import { backoffMs, PermanentDeliveryError, type WebhookPoster } from './post.js';
import { signingSecrets } from './secrets.js';
import { newWebhookSecret, signatureHeader } from './signature.js';

/**
 * Sends one message whose content is fixed on its row (a lead notification), answering the receiver's
 * HTTP status (null for an e-mail handed to the mail server); throws when it could not be sent.
 */
export type FixedMessageSender = (m: OutboxMessage, now: number) => Promise<{ httpStatus: number | null }>;

export interface WebhookDispatcherOptions {
  /** The task store: with it, task and batch messages are sent from here. */
  tasks?: TaskStore;
  /** The lead service's sender: with it, lead notifications are sent from here (see addLeadSender). */
  leads?: FixedMessageSender;
  webhooks: WebhookStore;
  post: WebhookPoster;
  log: Logger;
  publicUrl: string;
  maxAttempts: number;
  baseBackoffMs: number;
  maxBackoffMs: number;
  timeoutMs: number;
  leaseMs: number;
  pollIntervalMs?: number;
  batchSize?: number;
  /** Finished messages are deleted after this (the task retention), looked at once an hour. */
  retentionMs?: number;
  now?: () => number;
}

const USER_AGENT = 'agent-utility-webhooks/1';

export class WebhookDispatcher {
  private readonly owner = newId('whd');
  private readonly loop: WakeLoop;
  private readonly now: () => number;
  private lastCleanup = 0;
  private leads: FixedMessageSender | undefined;

  constructor(private readonly o: WebhookDispatcherOptions) {
    this.leads = o.leads;
    this.now = o.now ?? Date.now;
    this.loop = new WakeLoop({
      pass: () => this.drain(),
      pollIntervalMs: o.pollIntervalMs ?? 1_000,
      dueInMs: async () => {
        const now = this.now();
        const due = await o.webhooks.nextDueAt(now, this.kinds());
        return due === undefined ? undefined : due - now;
      },
      onError: (err, during) => o.log.error(during === 'pass' ? 'webhook dispatcher failed' : 'webhook dispatcher could not schedule', { err }),
    });
  }

  start(): void {
    this.loop.start();
  }

  /** The kinds of message this process can send: only those are claimed (another process sends the rest). */
  private kinds(): SubjectKind[] {
    return [...(this.o.tasks ? (['task', 'batch'] as const) : []), ...(this.leads ? (['lead_request'] as const) : [])];
  }

  /** The in-process lead service hands its notifications to this loop (one loop per process). */
  addLeadSender(send: FixedMessageSender): void {
    this.leads = send;
    this.loop.wake();
  }

  wake(): void {
    this.loop.wake();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private async drain(): Promise<void> {
    if (this.o.tasks) await this.o.webhooks.queueFinishedBatches(this.now());
    if (this.o.retentionMs !== undefined && this.now() - this.lastCleanup > 3_600_000) {
      this.lastCleanup = this.now();
      const deleted = await this.o.webhooks.deleteFinishedBefore(this.now() - this.o.retentionMs);
      if (deleted > 0) this.o.log.info('deleted old webhook messages', { count: deleted });
    }
    for (;;) {
      if (this.loop.isStopped) return;
      const batch = await this.o.webhooks.claimDue(this.owner, this.now(), this.o.leaseMs, this.o.batchSize ?? 16, this.kinds());
      if (batch.length === 0) return;
      await Promise.all(batch.map((m) => this.deliver(m)));
    }
  }

  private async deliver(m: OutboxMessage): Promise<void> {
    const started = this.now();
    await this.o.webhooks.startAttempt(m.id, m.attempts, started);
    let httpStatus: number | null = null;
    let error: string | null = null;
    let permanent = false;
    try {
      if (m.subjectKind === 'lead_request') {
        if (!this.leads) throw new Error('this process has no lead sender');
        httpStatus = (await this.leads(m, started)).httpStatus;
      } else httpStatus = await this.sendSigned(m, started);
      if (httpStatus !== null && (httpStatus < 200 || httpStatus >= 300)) {
        // Lead notifications keep the wording the lead service always reported in a request's view.
        error = `${m.subjectKind === 'lead_request' ? 'webhook' : 'receiver'} answered HTTP ${httpStatus}`;
        // 410 Gone is the receiver saying "stop" (Standard Webhooks: disable the endpoint).
        permanent = httpStatus === 410;
      }
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
      permanent = err instanceof PermanentDeliveryError;
    }
    const delivered = error === null;
    const givesUp = !delivered && (permanent || m.attempts >= (m.maxAttempts ?? this.o.maxAttempts));
    const finished = this.now();
    const retryAt = delivered || givesUp ? null : finished + backoffMs(m.attempts, this.o.baseBackoffMs, this.o.maxBackoffMs);
    await this.o.webhooks.finishAttempt(m, this.owner, { durationMs: finished - started, httpStatus, error, delivered, retryAt }, finished);
    const fields = { message: m.id, subject: m.subjectId, channel: m.channel, attempt: m.attempts, status: httpStatus, error };
    if (delivered) this.o.log.info('webhook delivered', fields);
    else if (givesUp) this.o.log.warn('webhook failed for good', fields);
    else this.o.log.info('webhook will be retried', { ...fields, retry_at: new Date(retryAt!).toISOString() });
  }

  /** A task or batch message: its body built from the settled row, signed with the key's whsec_ secret(s). */
  private async sendSigned(m: OutboxMessage, started: number): Promise<number> {
    if (!this.o.tasks) throw new Error('this process has no task store');
    const body = JSON.stringify(await buildPayload(this.o.tasks, m, this.o.publicUrl));
    const secrets = signingSecrets(await this.o.webhooks.secretsOf(m.keyId, newWebhookSecret, started), started);
    if (secrets.length === 0) throw new PermanentDeliveryError('the key has no signing secret');
    const timestamp = Math.floor(started / 1000);
    const headers = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': m.id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(secrets, m.id, timestamp, body),
    };
    return (await this.o.post(m.url, { headers, body, signal: AbortSignal.timeout(this.o.timeoutMs) })).status;
  }
}
