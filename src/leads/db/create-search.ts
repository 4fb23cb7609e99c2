// Records an accepted search (pending until it runs).
import type { PlanDb } from '../../db/plan.js';
import type { SearchRecord } from '../types.js';

export async function createSearch(db: PlanDb, s: SearchRecord): Promise<void> {
  await db.run(
    'INSERT INTO searches (id, account_id, service, category, zip, radius_miles, result_limit, status, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
    [s.id, s.accountId, db.dialect.text(s.service), s.category, db.dialect.text(s.zip), s.radiusMiles, s.limit, s.status, s.createdAt],
  );
}
