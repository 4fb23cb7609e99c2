// SIWX: a sign-in nonce is used once (kept in payment_nonces under network 'siwx'); expired ones are
// forgotten on the way. The primary key settles two concurrent uses: one inserts, the other sees a replay.
import type { Sql } from '../sql.js';

export async function useSignInNonce(db: Sql, nonce: string, now: number, forgetBefore: number): Promise<boolean> {
  await db.run("DELETE FROM payment_nonces WHERE network = 'siwx' AND created_at < $1", [forgetBefore]);
  const inserted = await db.run(
    "INSERT INTO payment_nonces (network, asset, payer, nonce, task_id, created_at) VALUES ('siwx', '', '', $1, '', $2) ON CONFLICT DO NOTHING",
    [nonce, now],
  );
  return inserted === 1;
}
