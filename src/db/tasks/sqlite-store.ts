// The task store on SQLite (better-sqlite3, WAL): one file, which several processes may share. Charging,
// claiming and batch creation run in BEGIN IMMEDIATE transactions (src/db/tasks/*.sqlite.ts); everything
// else is the shared SQL of src/db/tasks/.
import { migrateSqlite } from '../migrate.js';
import { SqliteDb } from '../sqlite.js';
import { claimTasksSqlite } from './claim-tasks.sqlite.js';
import { createBatchSqlite } from './create-batch.sqlite.js';
import { createTask, type InsertCharged } from './create-task.js';
import { createTasks } from './create-tasks.js';
import { insertChargedSqlite } from './insert-charged.sqlite.js';
import { taskMigrations } from './migrations.js';
import { SqlTaskStore } from './task-store.js';

export class SqliteStore extends SqlTaskStore {
  constructor(file: string) {
    const db = new SqliteDb(file);
    // Runs inside a transaction that already holds the write lock, on the connection itself.
    const insert: InsertCharged = async (_tx, task, keyId) => insertChargedSqlite(db, task, keyId);
    super(db, {
      createTask: (t, opts) => createTask(db, { insert, plain: (task, keyId) => db.immediate(() => insertChargedSqlite(db, task, keyId)) }, t, opts),
      createTasks: (items) => createTasks(db, insert, items),
      claimTasks: (o) => claimTasksSqlite(db, o),
      createBatch: (b, chargeKeyId) => createBatchSqlite(db, b, chargeKeyId),
      migrate: () => migrateSqlite(db, taskMigrations('sqlite')),
      close: async () => db.close(),
    });
  }
}
