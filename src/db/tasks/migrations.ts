// The task store's migrations (tasks, API keys and their ledger, idempotency, payment nonces, batches,
// key purchases; the PostgreSQL artifacts table), numbered per dialect in migrations/<dialect>/.
// Numbers are shared: a number missing on one dialect is a change that dialect does not need.
import type { DialectName } from '../dialect.js';
import { loadMigrations, type MigrationSet } from '../migrate.js';

export function taskMigrations(dialect: DialectName): MigrationSet {
  // Releases before db_migrations recorded these in schema_migrations.
  return { component: 'tasks', migrations: loadMigrations(new URL('./migrations/', import.meta.url), dialect), legacyLedger: 'schema_migrations' };
}
