// Records one registration attempt (by client address and hashed mailbox) for the limiter.
import type { PlanDb } from '../../db/plan.js';

export async function recordRegisterAttempt(db: PlanDb, ip: string, emailHash: string, at: number): Promise<void> {
  await db.run('INSERT INTO register_attempts (ip, email_hash, at) VALUES ($1, $2, $3)', [db.dialect.text(ip), emailHash, at]);
  // Old attempts only matter inside the limiter window; a day is far more than any window we use.
  await db.run('DELETE FROM register_attempts WHERE at < $1', [at - 86_400_000]);
}
