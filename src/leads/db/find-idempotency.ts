// The request an account's Idempotency-Key points at, with the hash of the body it came with.
import type { PlanDb } from '../../db/plan.js';
import type { IdempotencyRecord } from '../store.js';

export async function findIdempotency(db: PlanDb, accountId: string, key: string): Promise<IdempotencyRecord | undefined> {
  const r = await db.one<{ request_id: string; body_hash: string }>(
    'SELECT request_id, body_hash FROM leads_idempotency_keys WHERE account_id = $1 AND key = $2',
    [accountId, db.dialect.text(key)],
  );
  return r && { requestId: String(r.request_id), bodyHash: String(r.body_hash) };
}
