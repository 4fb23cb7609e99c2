// The lead store on either database: every LeadStore method is one operation file in this folder, written
// once for both dialects (the few dialect differences are named inside the operation that has them).
// SQLite lives in DATA_DIR/leads.db; on PostgreSQL the lead tables share the task store's schema.
import { migrate } from '../../db/migrate.js';
import { bindOperations } from '../../db/operations.js';
import type { PlanDb } from '../../db/plan.js';
import { PostgresDb } from '../../db/postgres.js';
import type { PostgresConnectionOptions } from '../../db/postgres-pool.js';
import { SqliteDb } from '../../db/sqlite.js';
import type { LeadStore } from '../store.js';
import { leadMigrations } from './migrations.js';
import * as operations from './operations.js';

/** A LeadStore whose connection is at hand (tests and benchmarks look inside). */
export type SqlLeadStore<D extends PlanDb = PlanDb> = LeadStore & { readonly db: D };

export type SqliteLeadStore = SqlLeadStore<SqliteDb>;

/** Opens (creating if needed) and migrates the SQLite lead database. */
export function openSqliteLeadStore(file: string): Promise<SqliteLeadStore> {
  return migrated(new SqliteDb(file));
}

/** Opens the pool and applies the lead migrations (under the advisory lock: safe with many starters). */
export function openPostgresLeadStore(o: PostgresConnectionOptions): Promise<SqlLeadStore<PostgresDb>> {
  return migrated(new PostgresDb({ ...o, applicationName: o.applicationName ?? 'agent-utility:leads' }));
}

/** The lead store on `db`, once the lead migrations are applied (the connection is closed when they fail). */
async function migrated<D extends PlanDb>(db: D): Promise<SqlLeadStore<D>> {
  try {
    await migrate(db, leadMigrations(db.dialect.name));
  } catch (err) {
    await db.close();
    throw err;
  }
  let closing: Promise<void> | undefined;
  return { ...bindOperations(db, operations), dialect: db.dialect.name, db, close: () => (closing ??= Promise.resolve(db.close())) };
}
