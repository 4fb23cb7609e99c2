// One migration runner for every store and both dialects. Each component (the task store, the lead
// service…) keeps numbered files per dialect, <dir>/<dialect>/NNN_name.sql, applied in order and
// recorded in one ledger table, db_migrations (component, version). They run under a lock, so many
// processes starting at once apply each migration exactly once: a PostgreSQL advisory lock per schema,
// or one SQLite BEGIN IMMEDIATE transaction around the whole run (migrate-postgres.ts holds the
// PostgreSQL side, so a SQLite process never loads pg). The ledger is read first without the lock: a
// process starting on an up-to-date database takes no lock at all. The build copies the .sql files next
// to the compiled code (scripts/copy-assets.mjs).
//
// Earlier releases kept a ledger per component (schema_migrations, lead_schema_migrations,
// leads_schema_migrations). A component names its old ledger and every run copies the versions found
// there into db_migrations (ignoring those already copied) whenever the ledger is behind, so an upgraded deployment re-runs nothing.
// The old ledger is read, never written or dropped: a process of the previous release restarting during
// a rolling upgrade still finds its migrations applied (it knows none of the newer ones).
import type pg from 'pg';
// Type only: a PostgreSQL process must not load better-sqlite3 (open-store.ts loads one adapter).
import type { SqliteDb } from './sqlite.js';
import { applyPending, upToDate, type MigrationSet } from './migration-ledger.js';

export { applyPending, loadMigrations, upToDate, type Migration, type MigrationSet } from './migration-ledger.js';

/**
 * Applies the set's pending migrations on whichever database `db` is: on SQLite all in one BEGIN IMMEDIATE
 * transaction, on PostgreSQL through migrate-postgres.ts (pg is loaded only then).
 */
export async function migrate(db: SqliteDb | { pool: pg.Pool; schema: string }, set: MigrationSet): Promise<void> {
  if ('pool' in db) return (await import('./migrate-postgres.js')).migratePostgres(db, set);
  if (await upToDate(db, set)) return;
  return db.transaction((tx) => applyPending(tx, set, async (sql) => db.raw.exec(sql)));
}
