// The request an account's Idempotency-Key points at, with the hash of the body it came with.
import type { PlanDb } from '../../db/plan.js';
import type { IdempotencyRecord } from '../store-shapes.js';

export function findIdempotency(db: PlanDb, accountId: string, key: string): Promise<IdempotencyRecord | undefined> {
  return db.one<IdempotencyRecord>('SELECT request_id AS "requestId", body_hash AS "bodyHash" FROM leads_idempotency_keys WHERE account_id = $1 AND key = $2', [
    accountId,
    db.dialect.text(key),
  ]);
}
