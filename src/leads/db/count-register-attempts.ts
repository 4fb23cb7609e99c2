// Registration attempts since a time, by client address and (when given) by hashed mailbox.
import type { PlanDb } from '../../db/plan.js';
import type { RegisterAttemptCounts } from '../store-shapes.js';
import { numOrNull, type Row } from './rows.js';

export async function countRegisterAttempts(db: PlanDb, ip: string, emailHash: string | null, since: number): Promise<RegisterAttemptCounts> {
  const byIp = await db.one<Row>('SELECT COUNT(*) AS n, MIN(at) AS oldest FROM register_attempts WHERE ip = $1 AND at >= $2', [db.dialect.text(ip), since]);
  const byEmail =
    emailHash === null ? undefined : await db.one<Row>('SELECT COUNT(*) AS n FROM register_attempts WHERE email_hash = $1 AND at >= $2', [emailHash, since]);
  return { byIp: Number(byIp?.n ?? 0), byEmail: Number(byEmail?.n ?? 0), oldestByIp: numOrNull(byIp?.oldest) };
}
