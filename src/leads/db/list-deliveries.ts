// A request's notifications (rows of the service's one outbox), one per channel (e-mail before webhook).
import type { PlanDb } from '../../db/plan.js';
import type { DeliveryRecord } from '../types.js';
import { DELIVERY_COLUMNS, LEAD_SUBJECT, toDelivery, type DeliveryRow } from './rows.js';

export async function listDeliveries(db: PlanDb, requestId: string): Promise<DeliveryRecord[]> {
  const rows = await db.all<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_outbox WHERE subject_id = $1 AND subject_kind = $2 ORDER BY channel, created_at`,
    [requestId, LEAD_SUBJECT],
  );
  return rows.map(toDelivery);
}
