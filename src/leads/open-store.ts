// Chooses the lead store for a configuration: PostgreSQL when DATABASE_URL is set (its tables in
// DATABASE_SCHEMA next to the task store's, migrated on open: safe when many nodes start at once), SQLite
// at DATA_DIR/leads.db otherwise. The SQL is in src/leads/db/.
import path from 'node:path';
import type { Config } from '../config.js';
import { openPostgresLeadStore, openSqliteLeadStore, type SqlLeadStore } from './db/lead-store.js';
import type { Logger } from '../logger.js';

export async function openLeadStore(config: Config, log: Logger): Promise<SqlLeadStore> {
  if (config.databaseUrl) {
    return openPostgresLeadStore({
      connectionString: config.databaseUrl,
      schema: config.database.schema,
      poolSize: config.database.poolSize,
      onError: (err) => log.warn('PostgreSQL connection problem (lead store); reconnecting', { err }),
    });
  }
  return openSqliteLeadStore(path.join(config.dataDir, 'leads.db'));
}
