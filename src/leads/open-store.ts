// Chooses the lead store for a configuration. Today that is SQLite at DATA_DIR/leads.db; a PostgreSQL
// adapter implementing LeadStore plugs in here when DATABASE_URL is set.
import path from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { openSqliteLeadStore } from './sqlite-store.js';
import type { LeadStore } from './store.js';

export function leadsDbPath(config: Config): string {
  return path.join(config.dataDir, 'leads.db');
}

export async function openLeadStore(config: Config, log: Logger): Promise<LeadStore> {
  if (config.databaseUrl) {
    log.warn('the lead service has no PostgreSQL adapter yet; it keeps its tables in SQLite', { file: leadsDbPath(config) });
  }
  return openSqliteLeadStore(leadsDbPath(config));
}
