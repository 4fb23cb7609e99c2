// The key with this hash, its account and e-mail (revoked keys too: the caller says why they fail).
import type { PlanDb } from '../../db/plan.js';
import type { ApiKeyRecord } from '../types.js';
import { numOrNull, str, type Row } from './rows.js';

export async function findKeyByHash(db: PlanDb, hash: string): Promise<ApiKeyRecord | undefined> {
  const r = await db.one<Row>(
    'SELECT k.id AS key_id, k.account_id, k.revoked_at, a.email FROM leads_api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = $1',
    [hash],
  );
  return r && { keyId: str(r.key_id), accountId: str(r.account_id), email: str(r.email), revokedAt: numOrNull(r.revoked_at) };
}
