// A request's outbox rows, one per channel (e-mail before webhook).
import type { PlanDb } from '../../db/plan.js';
import type { DeliveryRecord } from '../types.js';
import { DELIVERY_COLUMNS, toDelivery, type DeliveryRow } from './rows.js';

export async function listDeliveries(db: PlanDb, requestId: string): Promise<DeliveryRecord[]> {
  const rows = await db.all<DeliveryRow>(`SELECT ${DELIVERY_COLUMNS} FROM deliveries WHERE request_id = $1 ORDER BY channel, created_at`, [requestId]);
  return rows.map((r) => toDelivery(db.dialect, r));
}
