// What a wallet's latest x402 tasks still owe: the amounts of their payments not yet settled. Asked on
// every x402 creation (the gate checks balance minus what is pending), so only the latest `lookback`
// rows' payment field is read, inside the database: reading those rows as tasks (listTasks) parsed 200
// rows' JSON per paid request and was a tenth of the API process's CPU at 1,000 req/s.
import type { Sql } from '../sql.js';

export async function pendingPaymentAmounts(db: Sql, payer: string, lookback: number): Promise<string[]> {
  const rows = await db.all<{ amount: string | number | null }>(
    `SELECT recent.payment->>'amount' AS amount FROM (
       SELECT payment FROM tasks WHERE payer_kind = 'x402' AND payer_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2
     ) recent WHERE recent.payment->>'status' = 'pending'`,
    [payer, lookback],
  );
  return rows.flatMap((r) => (r.amount === null ? [] : [String(r.amount)]));
}
