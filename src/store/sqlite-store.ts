// The task store on SQLite (better-sqlite3, WAL): one file, which several processes may share. Creating
// and claiming run as BEGIN IMMEDIATE transactions (src/db/tasks/*.sqlite.ts); everything else is the
// shared SQL of src/db/tasks/.
import { migrateSqlite } from '../db/migrate.js';
import { SqliteDb } from '../db/sqlite.js';
import { claimTasksSqlite } from '../db/tasks/claim-tasks.sqlite.js';
import { createBatchSqlite } from '../db/tasks/create-batch.sqlite.js';
import { createTaskSqlite } from '../db/tasks/create-task.sqlite.js';
import { taskMigrations } from '../db/tasks/migrations.js';
import { SqlTaskStore } from '../db/tasks/task-store.js';

export class SqliteStore extends SqlTaskStore {
  constructor(file: string) {
    const db = new SqliteDb(file);
    super(db, {
      createTask: (t, opts) => createTaskSqlite(db, t, opts),
      claimTasks: (o) => claimTasksSqlite(db, o),
      createBatch: (b, chargeKeyId) => createBatchSqlite(db, b, chargeKeyId),
      migrate: () => migrateSqlite(db, taskMigrations('sqlite')),
      close: async () => db.close(),
    });
  }
}
