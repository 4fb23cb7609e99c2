// Revokes a key and stores its successor for the same account, atomically; refused if already revoked.
import { one, runPlan, type PlanDb } from '../../db/plan.js';
import { insertKey } from './issue-key.js';

export function rotateKey(db: PlanDb, oldKeyId: string, key: { id: string; hash: string; prefix: string }, now: number): Promise<void> {
  return runPlan(db, function* () {
    const old = yield* one<{ account_id: string }>('UPDATE leads_api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL RETURNING account_id', [
      now,
      oldKeyId,
    ]);
    if (!old) throw new Error('key already revoked');
    yield* insertKey(old.account_id, key, now);
  });
}
