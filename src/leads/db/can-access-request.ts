// Whether an account may read a request (it submitted it).
import type { PlanDb } from '../../db/plan.js';

export async function canAccessRequest(db: PlanDb, requestId: string, accountId: string): Promise<boolean> {
  return (await db.one('SELECT 1 FROM request_access WHERE request_id = $1 AND account_id = $2', [requestId, accountId])) !== undefined;
}
