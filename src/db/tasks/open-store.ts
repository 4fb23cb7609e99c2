// Chooses the store adapter from configuration: SQLite in DATA_DIR by default, PostgreSQL when
// DATABASE_URL is set (in DATABASE_SCHEMA, migrated on open: safe when many processes start at once).
// Only the chosen adapter is loaded: a PostgreSQL worker never loads better-sqlite3's native module, nor
// a SQLite one pg, which shortens a worker's start.
import path from 'node:path';
import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import type { TaskStore } from '../../store/port.js';

export async function openStore(config: Config, log?: Logger): Promise<TaskStore> {
  const store = config.databaseUrl
    ? new (await import('./postgres-store.js')).PostgresStore({
        connectionString: config.databaseUrl,
        schema: config.database.schema,
        poolSize: config.database.poolSize,
        onError: (err) => log?.warn('PostgreSQL connection problem; reconnecting', { err }),
      })
    : new (await import('./sqlite-store.js')).SqliteStore(path.join(config.dataDir, 'agent-utility.db'));
  try {
    await store.migrate();
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}
