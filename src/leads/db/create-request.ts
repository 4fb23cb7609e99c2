// Writes a request, its notification outbox rows (webhook_outbox: the service's one outbox), its access row and its idempotency record in ONE
// transaction, so a crash can never leave a request without its notifications (on SQLite the outbox is in the
// attached task database: WAL commits each file atomically, see docs/webhooks.md). A duplicate (same account,
// phone, pro and category since dedupSince) writes nothing new and returns the existing request. Only the
// account's own requests count: matching another account's would tell it who contacted whom.
import type { DialectName } from '../../db/dialect.js';
import { one, run, runPlan, type PlanDb } from '../../db/plan.js';
import type { NewRequest } from '../store-shapes.js';
import type { RequestRecord } from '../types.js';
import { jsonParam, LEAD_SUBJECT, REQUEST_COLUMNS, toRequest, type RequestRow } from './rows.js';

/**
 * Two identical requests arriving together would both miss each other's uncommitted row. SQLite's BEGIN
 * IMMEDIATE already runs them one after the other; on PostgreSQL a transaction advisory lock on the
 * dedup key makes the second wait and then find the first.
 */
const LOCK_DEDUP_KEY: Record<DialectName, string | undefined> = {
  sqlite: undefined,
  postgres: "SELECT pg_advisory_xact_lock(hashtext('agent-utility:lead-dedup'), hashtext($1))",
};

export function createRequest(db: PlanDb, n: NewRequest): Promise<{ request: RequestRecord; created: boolean }> {
  return runPlan(db, function* (d) {
    const t = d.text;
    // Returned as stored, so a caller sees the same values a later getRequest would.
    const r: RequestRecord = {
      ...n.request,
      proName: t(n.request.proName),
      zip: t(n.request.zip),
      name: t(n.request.name),
      phone: t(n.request.phone),
      email: t(n.request.email),
      notes: t(n.request.notes),
    };
    const lock = LOCK_DEDUP_KEY[d.name];
    if (lock) yield* one(lock, [`${r.accountId}\u0001${r.phone}\u0001${r.proId}\u0001${r.category}`]);
    const dup = yield* one<RequestRow>(
      `SELECT ${REQUEST_COLUMNS} FROM requests WHERE account_id = $1 AND phone = $2 AND pro_id = $3 AND category = $4 AND created_at >= $5 ORDER BY created_at DESC LIMIT 1`,
      [r.accountId, r.phone, r.proId, r.category, n.dedupSince],
    );
    const request = dup ? toRequest(d, dup) : r;
    if (!dup) {
      yield* run(
        `INSERT INTO requests (id, account_id, pro_id, pro_name, category, zip, name, phone, email, notes, consent, is_demo, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        [r.id, r.accountId, r.proId, r.proName, r.category, r.zip, r.name, r.phone, r.email, r.notes, jsonParam(d, r.consent), d.bool(r.isDemo), r.createdAt],
      );
      yield* run('INSERT INTO request_access (request_id, account_id) VALUES ($1, $2)', [r.id, r.accountId]);
      // The notifications go to the service's one outbox (webhook_outbox), in this same transaction.
      for (const x of n.deliveries) {
        yield* run(
          `INSERT INTO webhook_outbox (id, key_id, url, subject_kind, subject_id, event, status, attempts, next_attempt_at, last_error, delivered_at,
                                       created_at, channel, payload, signing_secret, max_attempts)
           VALUES ($1, $2, $3, $4, $5, 'created', $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
          [
            x.id,
            `leads:${r.accountId}`,
            t(x.target.address),
            LEAD_SUBJECT,
            x.requestId,
            x.status,
            x.attempts,
            x.nextAttemptAt,
            t(x.lastError),
            x.deliveredAt,
            x.createdAt,
            x.channel,
            jsonParam(d, x.payload),
            x.target.secret ?? null,
            x.maxAttempts,
          ],
        );
      }
    }
    if (n.idempotency) {
      yield* run('INSERT INTO leads_idempotency_keys (account_id, key, body_hash, request_id, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING', [
        r.accountId,
        t(n.idempotency.key),
        n.idempotency.bodyHash,
        request.id,
        r.createdAt,
      ]);
    }
    return { request, created: !dup };
  });
}
