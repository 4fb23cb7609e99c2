// One task's result alone: a batch results page reads each distinct task's result once, and only that.
import type { Sql } from '../sql.js';

export async function getTaskResult(db: Sql, id: string): Promise<unknown> {
  const r = await db.one<{ result: unknown }>(`SELECT result FROM tasks WHERE id = $1`, [id]);
  return r ? db.dialect.fromJson(r.result) : null;
}
