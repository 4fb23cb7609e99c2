// Stores a verification link's token hash for an e-mail address.
import type { PlanDb } from '../../db/plan.js';

export async function createVerification(db: PlanDb, v: { tokenHash: string; email: string; createdAt: number; expiresAt: number }): Promise<void> {
  await db.run('INSERT INTO verifications (token_hash, email, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
    v.tokenHash,
    db.dialect.text(v.email),
    v.createdAt,
    v.expiresAt,
  ]);
}
