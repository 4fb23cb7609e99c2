// The key with this hash, its account and e-mail (revoked keys too: the caller says why they fail).
import type { PlanDb } from '../../db/plan.js';
import type { ApiKeyRecord } from '../types.js';

export function findKeyByHash(db: PlanDb, hash: string): Promise<ApiKeyRecord | undefined> {
  return db.one<ApiKeyRecord>(
    'SELECT k.id AS "keyId", k.account_id AS "accountId", a.email, k.revoked_at AS "revokedAt" FROM leads_api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = $1',
    [hash],
  );
}
