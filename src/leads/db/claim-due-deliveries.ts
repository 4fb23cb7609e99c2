// Leases up to `limit` deliveries that are due, or whose lease lapsed ('sending' rows of a process that
// died mid-delivery), in one statement. SQLite runs it while holding the write lock. On PostgreSQL SKIP
// LOCKED passes over rows another dispatcher is leasing right now, and the outer WHERE, re-checked on a
// row that was just leased elsewhere, drops it: no delivery is ever handed to two dispatchers.
import type { PlanDb } from '../../db/plan.js';
import type { DeliveryRecord } from '../types.js';
import { DELIVERY_COLUMNS, toDelivery, type DeliveryRow } from './rows.js';

const DUE = "((status = 'pending' AND next_attempt_at <= $1) OR (status = 'sending' AND lease_until < $1))";

export async function claimDueDeliveries(db: PlanDb, now: number, leaseMs: number, limit: number): Promise<DeliveryRecord[]> {
  const rows = await db.all<DeliveryRow>(
    `UPDATE deliveries SET status = 'sending', lease_until = $2, updated_at = $1
     WHERE ${DUE} AND id IN (SELECT id FROM deliveries WHERE ${DUE} ORDER BY next_attempt_at LIMIT $3${db.dialect.skipLocked})
     RETURNING ${DELIVERY_COLUMNS}`,
    [now, now + leaseMs, limit],
  );
  return rows.map((r) => toDelivery(db.dialect, r)).sort((a, b) => a.nextAttemptAt - b.nextAttemptAt);
}
