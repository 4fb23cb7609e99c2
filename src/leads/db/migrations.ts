// The lead service's migrations (directory, accounts and keys, quotas, searches, requests and their
// notification outbox), numbered per dialect in migrations/<dialect>/. On PostgreSQL they share the task
// store's schema; on SQLite they live in DATA_DIR/leads.db.
import type { DialectName } from '../../db/dialect.js';
import { loadMigrations, type MigrationSet } from '../../db/migrate.js';

/** Where releases before db_migrations recorded the lead migrations (the name differed by dialect). */
const LEGACY_LEDGER: Record<DialectName, string> = { sqlite: 'lead_schema_migrations', postgres: 'leads_schema_migrations' };

export function leadMigrations(dialect: DialectName): MigrationSet {
  return { component: 'leads', migrations: loadMigrations(new URL('./migrations/', import.meta.url), dialect), legacyLedger: LEGACY_LEDGER[dialect] };
}
