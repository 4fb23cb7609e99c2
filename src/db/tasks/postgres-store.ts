// The task store on PostgreSQL (pg Pool), for many API nodes and worker processes sharing one schema.
// Charging, claiming and batch creation use row locks, SKIP LOCKED and unnest (src/db/tasks/*.postgres.ts);
// everything else is the shared SQL of src/db/tasks/. Changes are announced to other processes over LISTEN/NOTIFY after
// they commit (src/db/postgres-notifier.ts); workers and waiters also poll, so a lost one costs only latency.
import { migratePostgres } from '../migrate-postgres.js';
import { PostgresDb } from '../postgres.js';
import { channelName, PostgresNotifier } from '../postgres-notifier.js';
import { clientConfig, type PostgresConnectionOptions } from '../postgres-pool.js';
import { claimTasksPostgres } from './claim-tasks.postgres.js';
import { createBatchPostgres } from './create-batch.postgres.js';
import { createTask } from './create-task.js';
import { createTasks } from './create-tasks.js';
import { insertChargedPostgres } from './insert-charged.postgres.js';
import { taskMigrations } from './migrations.js';
import { SqlTaskStore } from './task-store.js';

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
        // One statement charges and inserts, so a plain creation needs no explicit transaction.
        createTask: (t, opts) => createTask(db, { insert: insertChargedPostgres, plain: (task, keyId) => insertChargedPostgres(db, task, keyId) }, t, opts),
        createTasks: (items) => createTasks(db, insertChargedPostgres, items),
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
