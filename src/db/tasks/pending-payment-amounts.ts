// What a wallet's latest x402 tasks still owe: the amounts of their payments not yet settled. Asked on
// every x402 creation (the gate checks balance minus what is pending), so only the latest `lookback`
// rows' payment field is read, inside the database: reading those rows as tasks (listTasks) parsed 200
// rows' JSON per paid request and was a tenth of the API process's CPU at 1,000 req/s. Status and amount
// are taken in the inner query in the very words of SQLite's index (migration 018), whose stored values
// then stand in for parsing each row's JSON again.
import type { Sql } from '../sql.js';

/** The query ($1 the payer, $2 the lookback); exported so a test can ask SQLite how it runs it. */
export const PENDING_AMOUNTS_SQL = `SELECT recent.amount FROM (
  SELECT payment->>'status' AS status, payment->>'amount' AS amount FROM tasks
  WHERE payer_kind = 'x402' AND payer_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2
) recent WHERE recent.status = 'pending'`;

export async function pendingPaymentAmounts(db: Sql, payer: string, lookback: number): Promise<string[]> {
  const rows = await db.all<{ amount: string | number | null }>(PENDING_AMOUNTS_SQL, [payer, lookback]);
  return rows.flatMap((r) => (r.amount === null ? [] : [String(r.amount)]));
}
