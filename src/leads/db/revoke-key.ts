// Revokes a key (no-op when it already is).
import type { PlanDb } from '../../db/plan.js';

export async function revokeKey(db: PlanDb, keyId: string, now: number): Promise<void> {
  await db.run('UPDATE leads_api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [now, keyId]);
}
