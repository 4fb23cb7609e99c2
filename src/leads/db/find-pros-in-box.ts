// Pros offering a category whose location lies in a bounding box: the indexed prefilter of a radius search,
// a range scan of pro_categories_geo on (category, lat) with lng checked inside the index.
import type { DialectName } from '../../db/dialect.js';
import type { PlanDb } from '../../db/plan.js';
import type { Category } from '../categories.js';
import type { BoundingBox } from '../geo.js';
import type { Pro } from '../types.js';
import { proColumns, toPro, type ProRow } from './rows.js';

/** SQLite's plan is pinned to the geo index; PostgreSQL has no such hint and picks it on its own. */
const INDEX_HINT: Record<DialectName, string> = { sqlite: 'INDEXED BY pro_categories_geo', postgres: '' };

export async function findProsInBox(db: PlanDb, category: Category, box: BoundingBox): Promise<Pro[]> {
  const rows = await db.all<ProRow>(
    `SELECT ${proColumns('p')} FROM pro_categories c ${INDEX_HINT[db.dialect.name]} JOIN pros p ON p.id = c.pro_id
     WHERE c.category = $1 AND c.lat BETWEEN $2 AND $3 AND c.lng BETWEEN $4 AND $5`,
    [category, box.minLat, box.maxLat, box.minLng, box.maxLng],
  );
  return rows.map((r) => toPro(db.dialect, r));
}
