// A payment nonce is used once, by one task or one key purchase: its primary key makes two concurrent
// uses of one signature race on an insert, not on a read. Stored with the network as given and the rest
// lower-case (hex may arrive in either case).
import type { CreateTaskOptions } from '../../store/port.js';
import type { Sql } from '../sql.js';

type PaymentNonce = NonNullable<CreateTaskOptions['nonce']>;

export const nonceKey = (n: PaymentNonce) => [n.network, n.asset.toLowerCase(), n.payer.toLowerCase(), n.nonce.toLowerCase()];

export const NONCE_WHERE = 'WHERE network = $1 AND asset = $2 AND payer = $3 AND nonce = $4';

/** Reserves the nonce for `usedBy` (a task or purchase id): null when reserved now, else the id that used it first. */
export async function reserveNonce(tx: Sql, n: PaymentNonce, usedBy: string, now: number): Promise<string | null> {
  const key = nonceKey(n);
  const inserted = await tx.run(
    'INSERT INTO payment_nonces (network, asset, payer, nonce, task_id, created_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING',
    [...key, usedBy, now],
  );
  if (inserted === 1) return null;
  return (await tx.one<{ task_id: string }>(`SELECT task_id FROM payment_nonces ${NONCE_WHERE}`, key))?.task_id ?? '';
}
