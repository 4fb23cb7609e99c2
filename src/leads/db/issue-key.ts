// Creates the account for an e-mail if needed, revokes its active keys and stores the new key's hash:
// one active key per account.
import { one, run, runPlan, type Plan, type PlanDb } from '../../db/plan.js';
import { randomId } from '../ids.js';

const INSERT_KEY = 'INSERT INTO leads_api_keys (id, account_id, key_hash, prefix, created_at) VALUES ($1, $2, $3, $4, $5)';

/** Stores a new key of an account (its secret's hash and displayed prefix), as one statement of a plan. */
export function insertKey(accountId: string, key: { id: string; hash: string; prefix: string }, now: number): Plan<number> {
  return run(INSERT_KEY, [key.id, accountId, key.hash, key.prefix, now]);
}

export function issueKey(db: PlanDb, email: string, key: { id: string; hash: string; prefix: string }, now: number): Promise<{ accountId: string }> {
  return runPlan(db, function* (d) {
    // The no-op DO UPDATE returns the existing account's id and, on PostgreSQL, locks its row until commit:
    // concurrent issues for one e-mail queue here, so exactly one key stays active (SQLite's BEGIN
    // IMMEDIATE already runs them one at a time).
    const account = yield* one<{ id: string }>(
      'INSERT INTO accounts (id, email, created_at) VALUES ($1, $2, $3) ON CONFLICT (email) DO UPDATE SET email = excluded.email RETURNING id',
      [randomId('acct', 12), d.text(email), now],
    );
    const accountId = String(account?.id);
    yield* run('UPDATE leads_api_keys SET revoked_at = $1 WHERE account_id = $2 AND revoked_at IS NULL', [now, accountId]);
    yield* insertKey(accountId, key, now);
    return { accountId };
  });
}
