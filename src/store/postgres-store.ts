// The task store on PostgreSQL (pg Pool), for many API nodes and worker processes sharing one schema.
// Creating and claiming use row locks and SKIP LOCKED (src/db/tasks/*.postgres.ts); everything else is
// the shared SQL of src/db/tasks/. Changes are announced to other processes over LISTEN/NOTIFY after
// they commit (postgres-notifier.ts); workers and waiters also poll, so a lost one costs only latency.
import { migratePostgres } from '../db/migrate.js';
import { PostgresDb } from '../db/postgres.js';
import { channelName, PostgresNotifier } from '../db/postgres-notifier.js';
import { clientConfig, type PostgresConnectionOptions } from '../db/postgres-pool.js';
import { claimTasksPostgres } from '../db/tasks/claim-tasks.postgres.js';
import { createBatchPostgres } from '../db/tasks/create-batch.postgres.js';
import { createTaskPostgres } from '../db/tasks/create-task.postgres.js';
import { taskMigrations } from '../db/tasks/migrations.js';
import { SqlTaskStore } from '../db/tasks/task-store.js';

export interface PostgresStoreOptions extends PostgresConnectionOptions {
  /** Where connection problems of idle or listening connections are reported. */
  onError?: (err: Error) => void;
}

export class PostgresStore extends SqlTaskStore {
  readonly schema: string;
  readonly pool: PostgresDb['pool'];
  private readonly notifier: PostgresNotifier;
  private readonly channels: { available: string; settled: string };

  constructor(o: PostgresStoreOptions) {
    const db = new PostgresDb(o);
    const notifier = new PostgresNotifier(
      { ...clientConfig(o), application_name: `${o.applicationName ?? 'agent-utility'}:listen` },
      (sql, params) => db.pool.query(sql, params),
      o.onError,
    );
    const channels = { available: channelName(o.schema, 'task_available'), settled: channelName(o.schema, 'task_settled') };
    let closed = false;
    super(
      db,
      {
        createTask: (t, opts) => createTaskPostgres(db, t, opts),
        claimTasks: (c) => claimTasksPostgres(db, c),
        createBatch: (b, chargeKeyId) => createBatchPostgres(db, b, chargeKeyId),
        migrate: () => migratePostgres(db, taskMigrations('postgres')),
        close: async () => {
          if (closed) return;
          closed = true;
          await notifier.close();
          await db.close();
        },
      },
      { available: (tool) => notifier.publish(channels.available, tool), settled: (id) => notifier.publish(channels.settled, id) },
    );
    this.schema = o.schema;
    this.pool = db.pool;
    this.notifier = notifier;
    this.channels = channels;
  }

  onTaskAvailable(listener: (tool: string) => void): () => void {
    return this.notifier.subscribe(this.channels.available, listener);
  }

  onTaskSettled(listener: (taskId: string) => void): () => void {
    return this.notifier.subscribe(this.channels.settled, listener);
  }
}
