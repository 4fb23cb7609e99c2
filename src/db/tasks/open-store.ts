// Chooses the store adapter from configuration: SQLite in DATA_DIR by default, PostgreSQL when
// DATABASE_URL is set (in DATABASE_SCHEMA, migrated on open: safe when many processes start at once).
import path from 'node:path';
import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import type { TaskStore } from '../../store/port.js';
import { PostgresStore } from './postgres-store.js';
import { SqliteStore } from './sqlite-store.js';

export async function openStore(config: Config, log?: Logger): Promise<TaskStore> {
  if (config.databaseUrl) {
    const store = new PostgresStore({
      connectionString: config.databaseUrl,
      schema: config.database.schema,
      poolSize: config.database.poolSize,
      onError: (err) => log?.warn('PostgreSQL connection problem; reconnecting', { err }),
    });
    try {
      await store.migrate();
    } catch (err) {
      await store.close();
      throw err;
    }
    return store;
  }
  const store = new SqliteStore(path.join(config.dataDir, 'agent-utility.db'));
  await store.migrate();
  return store;
}
