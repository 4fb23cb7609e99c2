// The webhook outbox and its delivery log on the task store's connection (tables of migration 010):
// claiming due messages under a lease, recording each attempt, the per-key signing secrets, and the
// sweep that queues a batch's event once every one of its tasks has finished. Both dialects.
//
// A message's lease (lease_until) starts and ends on the store's clock (dialect.nowMs), so a dispatcher
// whose clock runs ahead cannot take a message another is still sending and send it twice. Its retry time
// (next_attempt_at) stays on the dispatchers' clocks: sending a retry early or late sends it once all the same.
import type { Sql } from '../sql.js';
// Type only: a PostgreSQL process never loads better-sqlite3.
import type { SqliteDb } from '../sqlite.js';

/**
 * What a message is about. Tasks and batches get bodies built from their settled rows; a lead request's
 * notifications (the lead service's, migration 013) carry their fixed message on the row.
 */
export type SubjectKind = 'task' | 'batch' | 'lead_request';
export const SUBJECT_KINDS: readonly SubjectKind[] = ['task', 'batch', 'lead_request'];

export interface OutboxMessage {
  id: string;
  keyId: string;
  /** Where it goes: an http(s) URL, or the e-mail address of an 'email' message. */
  url: string;
  subjectKind: SubjectKind;
  subjectId: string;
  /** Status word: completed, failed, cancelled. */
  event: string;
  /** Attempts started, this one included (claiming counts it, so a message that kills its sender still runs out). */
  attempts: number;
  createdAt: number;
  channel: 'webhook' | 'email';
  /** The fixed message (lead notifications), parsed; null when the body is built at each attempt. */
  payload: Record<string, unknown> | null;
  /** A lead webhook's own signing secret (the pro's); null for messages signed with the key's whsec_ secret. */
  signingSecret: string | null;
  /** This message's attempt budget; null means the configured one. */
  maxAttempts: number | null;
}

export interface DeliveryAttempt {
  messageId: string;
  attempt: number;
  startedAt: number;
  durationMs: number | null;
  httpStatus: number | null;
  error: string | null;
}

export interface DeliveryLogEntry {
  id: string;
  url: string;
  subjectKind: string;
  subjectId: string;
  event: string;
  status: string;
  attempts: number;
  nextAttemptAt: number | null;
  deliveredAt: number | null;
  lastError: string | null;
  createdAt: number;
  log: DeliveryAttempt[];
}

export interface KeySecrets {
  secret: string;
  previousSecret: string | null;
  previousUntil: number | null;
  createdAt: number;
}

type Row = Record<string, unknown>;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const toMessage = (r: Row): OutboxMessage => ({
  id: String(r.id),
  keyId: String(r.key_id),
  url: String(r.url),
  subjectKind: SUBJECT_KINDS.find((k) => k === r.subject_kind) ?? 'task',
  subjectId: String(r.subject_id),
  event: String(r.event),
  attempts: Number(r.attempts),
  createdAt: Number(r.created_at),
  channel: r.channel === 'email' ? 'email' : 'webhook',
  payload: typeof r.payload === 'string' ? (JSON.parse(r.payload) as Record<string, unknown>) : null,
  signingSecret: (r.signing_secret as string | null) ?? null,
  maxAttempts: num(r.max_attempts),
});
const toAttempt = (r: Row): DeliveryAttempt => ({
  messageId: String(r.message_id),
  attempt: Number(r.attempt),
  startedAt: Number(r.started_at),
  durationMs: num(r.duration_ms),
  httpStatus: num(r.http_status),
  error: (r.error as string | null) ?? null,
});
const toSecrets = (r: Row): KeySecrets => ({
  secret: String(r.secret),
  previousSecret: (r.previous_secret as string | null) ?? null,
  previousUntil: num(r.previous_until),
  createdAt: Number(r.created_at),
});

const MESSAGE_COLUMNS = 'id, key_id, url, subject_kind, subject_id, event, attempts, created_at, channel, payload, signing_secret, max_attempts';

/** The messages of these kinds only (a dispatcher claims what it can send); the words are our own constants. */
const ofKinds = (kinds: readonly SubjectKind[]) =>
  `subject_kind IN (${
    kinds
      .filter((k) => SUBJECT_KINDS.includes(k))
      .map((k) => `'${k}'`)
      .join(', ') || 'NULL'
  })`;

export class WebhookStore {
  constructor(readonly db: Sql) {}

  /**
   * Takes up to `limit` messages due by `now` (the caller's clock) for `owner`, for `leaseMs` of the store's
   * clock, counting the attempt. A message whose lease ran out (its sender died mid-request) is due again:
   * at least once, never lost.
   */
  async claimDue(owner: string, now: number, leaseMs: number, limit: number, kinds: readonly SubjectKind[] = SUBJECT_KINDS): Promise<OutboxMessage[]> {
    const d = this.db.dialect;
    const rows = await this.db.all<Row>(
      `UPDATE webhook_outbox SET lease_owner = $1, lease_until = ${d.nowMs} + $2, attempts = attempts + 1
       WHERE id IN (SELECT id FROM webhook_outbox WHERE status = 'pending' AND next_attempt_at <= $3 AND (lease_until IS NULL OR lease_until < ${d.nowMs})
                      AND ${ofKinds(kinds)}
                    ORDER BY next_attempt_at LIMIT $4${d.skipLocked})
       RETURNING ${MESSAGE_COLUMNS}`,
      [owner, Math.max(0, Math.round(leaseMs)), now, limit],
    );
    return rows.map(toMessage);
  }

  /**
   * When, on the caller's clock (`now` is its present), the next pending message falls due: its retry time,
   * or its lease's end moved from the store's clock to the caller's (so a caller whose clock runs ahead
   * does not wake again and again for a lease that has not ended). Undefined when none is pending.
   */
  async nextDueAt(now: number, kinds: readonly SubjectKind[] = SUBJECT_KINDS): Promise<number | undefined> {
    const leaseEnd = `lease_until - ${this.db.dialect.nowMs} + $1`;
    const r = await this.db.one<Row>(
      `SELECT MIN(CASE WHEN lease_until IS NOT NULL AND ${leaseEnd} > next_attempt_at THEN ${leaseEnd} ELSE next_attempt_at END) AS due
       FROM webhook_outbox WHERE status = 'pending' AND ${ofKinds(kinds)}`,
      [now],
    );
    return num(r?.due) ?? undefined;
  }

  /** Messages by outbox status (pending ones are the backlog), for /metrics. */
  async countsByStatus(): Promise<{ status: string; count: number }[]> {
    const rows = await this.db.all<Row>('SELECT status, COUNT(*) AS n FROM webhook_outbox GROUP BY status');
    return rows.map((r) => ({ status: String(r.status), count: num(r.n) ?? 0 }));
  }

  /** Written before the request goes out, so an attempt cut short by a crash still shows in the log. */
  async startAttempt(messageId: string, attempt: number, now: number): Promise<void> {
    await this.db.run('INSERT INTO webhook_attempts (message_id, attempt, started_at) VALUES ($1, $2, $3)', [messageId, attempt, now]);
  }

  /**
   * The attempt's outcome and the message's next state, together: delivered, retried at `retryAt`, or
   * failed for good (retryAt null). Only the lease holder moves the message on.
   */
  async finishAttempt(
    m: OutboxMessage,
    owner: string,
    outcome: { durationMs: number; httpStatus: number | null; error: string | null; delivered: boolean; retryAt: number | null },
    now: number,
  ): Promise<void> {
    const status = outcome.delivered ? 'delivered' : outcome.retryAt === null ? 'failed' : 'pending';
    await this.atomically([
      [
        'UPDATE webhook_attempts SET duration_ms = $3, http_status = $4, error = $5 WHERE message_id = $1 AND attempt = $2',
        [m.id, m.attempts, outcome.durationMs, outcome.httpStatus, outcome.error],
      ],
      [
        `UPDATE webhook_outbox SET status = $3, next_attempt_at = $4, last_error = $5, delivered_at = $6, lease_owner = NULL, lease_until = NULL
         WHERE id = $1 AND lease_owner = $2`,
        [m.id, owner, status, outcome.retryAt ?? now, outcome.error, outcome.delivered ? now : null],
      ],
    ]);
  }

  /**
   * Statements in one transaction. On SQLite it runs synchronously (BEGIN IMMEDIATE to COMMIT with no
   * await between), so the write lock is never held while other code of this process runs: the lead
   * store's connection shares this file with the task store's (src/db/sqlite.ts, busy: 'yield').
   */
  private async atomically(statements: [string, unknown[]][]): Promise<void> {
    const db = this.db as Partial<SqliteDb>;
    if (db.immediate && db.sql) {
      const sql = db.sql.bind(db);
      await db.immediate(() => {
        for (const [text, values] of statements) sql(text).run(values);
      });
      return;
    }
    await this.db.transaction(async (tx) => {
      for (const [text, values] of statements) await tx.run(text, values);
    });
  }

  /**
   * Queues batch.completed for every batch with a webhook whose tasks have all finished: the event is
   * derived from committed rows, and the batch is marked in the same transaction, so it is queued once.
   */
  async queueFinishedBatches(now: number, limit = 100): Promise<number> {
    return this.db.transaction(async (tx) => {
      const done = await tx.all<Row>(
        `SELECT b.id, b.payer_id, b.webhook_url FROM batches b
         WHERE b.webhook_url IS NOT NULL AND b.webhook_queued_at IS NULL
           AND NOT EXISTS (SELECT 1 FROM tasks t WHERE t.batch_id = b.id AND t.status IN ('pending', 'running'))
         ORDER BY b.created_at LIMIT $1`,
        [limit],
      );
      for (const b of done) {
        await tx.run(
          `INSERT INTO webhook_outbox (id, key_id, url, subject_kind, subject_id, event, status, attempts, next_attempt_at, created_at)
           VALUES ($1, $2, $3, 'batch', $4, 'completed', 'pending', 0, $5, $5) ON CONFLICT DO NOTHING`,
          [`msg_${String(b.id)}`, b.payer_id, b.webhook_url, b.id, now],
        );
        await tx.run('UPDATE batches SET webhook_queued_at = $2 WHERE id = $1', [b.id, now]);
      }
      return done.length;
    });
  }

  /**
   * Finished messages (and their attempts) older than `cutoff`: kept as long as the tasks they are about.
   * A lead request's notifications stay with the request (its view lists them; their copies of the
   * message are erased with the requester's details instead).
   */
  async deleteFinishedBefore(cutoff: number): Promise<number> {
    const old = `status <> 'pending' AND created_at < $1 AND subject_kind <> 'lead_request'`;
    return this.db.transaction(async (tx) => {
      await tx.run(`DELETE FROM webhook_attempts WHERE message_id IN (SELECT id FROM webhook_outbox WHERE ${old})`, [cutoff]);
      return tx.run(`DELETE FROM webhook_outbox WHERE ${old}`, [cutoff]);
    });
  }

  /** The key's secrets, made on first use (two nodes racing keep the first one written). */
  async secretsOf(keyId: string, fresh: () => string, now: number): Promise<KeySecrets> {
    const found = await this.db.one<Row>('SELECT secret, previous_secret, previous_until, created_at FROM webhook_secrets WHERE key_id = $1', [keyId]);
    if (found) return toSecrets(found);
    await this.db.run('INSERT INTO webhook_secrets (key_id, secret, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [keyId, fresh(), now]);
    return toSecrets((await this.db.one<Row>('SELECT secret, previous_secret, previous_until, created_at FROM webhook_secrets WHERE key_id = $1', [keyId]))!);
  }

  /** A new current secret; the one it replaces keeps signing until `previousUntil` (0 grace: at once dropped). */
  async rotateSecret(keyId: string, next: string, previousUntil: number, now: number): Promise<KeySecrets> {
    return this.db.transaction(async (tx) => {
      const changed = await tx.run('UPDATE webhook_secrets SET previous_secret = secret, previous_until = $3, secret = $2, created_at = $4 WHERE key_id = $1', [
        keyId,
        next,
        previousUntil,
        now,
      ]);
      if (changed === 0) await tx.run('INSERT INTO webhook_secrets (key_id, secret, created_at) VALUES ($1, $2, $3)', [keyId, next, now]);
      return toSecrets((await tx.one<Row>('SELECT secret, previous_secret, previous_until, created_at FROM webhook_secrets WHERE key_id = $1', [keyId]))!);
    });
  }

  /** Every message about a task or batch with each attempt, for its owner (key_id is checked by the caller's query). */
  async deliveriesOf(subjectId: string, keyId: string): Promise<DeliveryLogEntry[]> {
    const messages = await this.db.all<Row>(
      `SELECT id, url, subject_kind, subject_id, event, status, attempts, next_attempt_at, delivered_at, last_error, created_at
       FROM webhook_outbox WHERE subject_id = $1 AND key_id = $2 ORDER BY created_at, id`,
      [subjectId, keyId],
    );
    const out: DeliveryLogEntry[] = [];
    for (const m of messages) {
      const attempts = await this.db.all<Row>(
        'SELECT message_id, attempt, started_at, duration_ms, http_status, error FROM webhook_attempts WHERE message_id = $1 ORDER BY attempt, id',
        [m.id],
      );
      out.push({
        id: String(m.id),
        url: String(m.url),
        subjectKind: String(m.subject_kind),
        subjectId: String(m.subject_id),
        event: String(m.event),
        status: String(m.status),
        attempts: Number(m.attempts),
        nextAttemptAt: m.status === 'pending' ? num(m.next_attempt_at) : null,
        deliveredAt: num(m.delivered_at),
        lastError: (m.last_error as string | null) ?? null,
        createdAt: Number(m.created_at),
        log: attempts.map(toAttempt),
      });
    }
    return out;
  }
}
