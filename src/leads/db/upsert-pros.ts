// Imports professionals in one transaction: insert or update on external id (pro ids derive from it), one
// pro_categories row per service with the location copied in, and with `replace` every pro not in the
// input deleted. Real data arriving ends the demo: the two must never be mixed in one directory.
import { one, run, runPlan, type PlanDb } from '../../db/plan.js';
import { proIdFor } from '../ids.js';
import type { UpsertProsResult } from '../store-shapes.js';
import type { ProInput } from '../types.js';
import { jsonParam } from './rows.js';

const UPSERT = `INSERT INTO pros (id, external_id, name, phone, email, webhook_url, webhook_secret, address, zip, lat, lng, rating,
    review_count, website, description, services, is_demo, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $18)
  ON CONFLICT (external_id) DO UPDATE SET name = excluded.name, phone = excluded.phone, email = excluded.email,
    webhook_url = excluded.webhook_url, webhook_secret = excluded.webhook_secret, address = excluded.address, zip = excluded.zip,
    lat = excluded.lat, lng = excluded.lng, rating = excluded.rating, review_count = excluded.review_count, website = excluded.website,
    description = excluded.description, services = excluded.services, is_demo = excluded.is_demo, updated_at = excluded.updated_at`;

export function upsertPros(db: PlanDb, pros: ProInput[], opts: { replace: boolean; now: number }): Promise<UpsertProsResult> {
  return runPlan(db, function* (d) {
    const result: UpsertProsResult = { inserted: 0, updated: 0, removed: 0, demoRemoved: 0 };
    if (pros.some((p) => !p.isDemo)) result.demoRemoved = yield* run('DELETE FROM pros WHERE is_demo');
    const seen: string[] = [];
    const t = d.text;
    for (const p of pros) {
      const id = proIdFor(p.externalId);
      seen.push(id);
      const existed = (yield* one('SELECT 1 FROM pros WHERE id = $1', [id])) !== undefined;
      yield* run(UPSERT, [
        id,
        t(p.externalId),
        t(p.name),
        t(p.phone),
        t(p.email),
        t(p.webhookUrl),
        t(p.webhookSecret),
        t(p.address),
        t(p.zip),
        p.lat,
        p.lng,
        p.rating,
        p.reviewCount,
        t(p.website),
        t(p.description),
        jsonParam(d, p.services),
        d.bool(p.isDemo),
        opts.now,
      ]);
      result[existed ? 'updated' : 'inserted']++;
      // Also for a "new" pro: another node seeding the same directory may have inserted it meanwhile.
      yield* run('DELETE FROM pro_categories WHERE pro_id = $1', [id]);
      for (const c of new Set(p.services)) yield* run('INSERT INTO pro_categories (category, lat, lng, pro_id) VALUES ($1, $2, $3, $4)', [c, p.lat, p.lng, id]);
    }
    if (opts.replace) result.removed = yield* run(`DELETE FROM pros WHERE NOT (${d.inArray('id', '$1')})`, [d.array(seen)]);
    return result;
  });
}
