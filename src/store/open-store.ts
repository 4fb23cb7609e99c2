// Chooses the store adapter from configuration: SQLite in DATA_DIR by default, PostgreSQL when
// DATABASE_URL is set.
import path from 'node:path';
import type { Config } from '../config.js';
import type { TaskStore } from './port.js';
import { SqliteStore } from './sqlite-store.js';

export async function openStore(config: Config): Promise<TaskStore> {
  if (config.databaseUrl) {
    throw new Error('DATABASE_URL is set, but this build has no PostgreSQL store yet; unset it to use SQLite.');
  }
  const store = new SqliteStore(path.join(config.dataDir, 'agent-utility.db'));
  await store.migrate();
  return store;
}
