// The task store on SQLite (better-sqlite3, WAL): one file, which several processes may share. Charging,
// claiming and batch creation run in BEGIN IMMEDIATE transactions (src/db/tasks/*.sqlite.ts); everything
// else is the shared SQL of src/db/tasks/.
import { SqliteDb } from '../sqlite.js';
import { claimTasksSqlite } from './claim-tasks.sqlite.js';
import { insertBatchTasksSqlite } from './create-batch.sqlite.js';
import { insertChargedSqlite } from './insert-charged.sqlite.js';
import { SqlTaskStore } from './task-store.js';

export class SqliteStore extends SqlTaskStore<SqliteDb> {
  /** `busy` and `checkpoints`: see SqliteDb (a server yields on a held lock and checkpoints in the background). */
  constructor(file: string, opts: { busy?: 'wait' | 'yield'; checkpoints?: 'inline' | 'background' } = {}) {
    const db = new SqliteDb(file, opts);
    super(db, {
      // These two run inside a transaction that already holds the write lock, on the connection itself.
      insert: async (_tx, task, keyId) => insertChargedSqlite(db, task, keyId),
      plain: (task, keyId) => db.immediate(() => insertChargedSqlite(db, task, keyId)),
      claimTasks: (o) => claimTasksSqlite(db, o),
      insertBatchTasks: async (_tx, b, chargeKeyId) => insertBatchTasksSqlite(db, b, chargeKeyId),
    });
  }
}
