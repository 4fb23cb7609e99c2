// Uses a verification link once: a single conditional UPDATE, so two clicks racing cannot both succeed.
import type { PlanDb } from '../../db/plan.js';

/** Marks the token used and returns its e-mail; undefined when unknown, used or expired. */
export function consumeVerification(db: PlanDb, tokenHash: string, now: number): Promise<{ email: string } | undefined> {
  return db.one<{ email: string }>('UPDATE verifications SET used_at = $1 WHERE token_hash = $2 AND used_at IS NULL AND expires_at > $1 RETURNING email', [
    now,
    tokenHash,
  ]);
}
