// Chooses the store adapter from configuration: SQLite in DATA_DIR by default, PostgreSQL when
// DATABASE_URL is set (in DATABASE_SCHEMA, migrated on open: safe when many processes start at once).
// Only the chosen adapter is loaded: a PostgreSQL worker never loads better-sqlite3's native module, nor
// a SQLite one pg, which shortens a worker's start.
import path from 'node:path';
import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import type { TaskStore } from '../../store/port.js';
import { StoreUnavailable } from '../../errors.js';

export async function openStore(config: Config, log?: Logger): Promise<TaskStore> {
  const store = config.databaseUrl
    ? new (await import('./postgres-store.js')).PostgresStore({
        connectionString: config.databaseUrl,
        schema: config.database.schema,
        poolSize: config.database.poolSize,
        // Outages are logged once each, below; anything else a connection reports, as it comes.
        onError: (err) => {
          if (!(err instanceof StoreUnavailable)) log?.warn('PostgreSQL connection problem; reconnecting', { err });
        },
      })
    : new (await import('./sqlite-store.js')).SqliteStore(path.join(config.dataDir, 'agent-utility.db'), { busy: 'yield', checkpoints: 'background' });
  if (log) logOutages(store, log);
  try {
    await store.migrate();
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}

/** One line when the database becomes unavailable, one when it answers again: never one per request. */
function logOutages(store: TaskStore, log: Logger): void {
  store.faults?.onChange((change) => {
    const { reason, detail, since } = change.state;
    if (change.kind === 'down') log.error('store unavailable; answering 503 STORE_UNAVAILABLE until it recovers', { reason, detail });
    else log.warn('store available again', { reason, down_ms: Date.now() - since, errors: change.errors });
  });
}
