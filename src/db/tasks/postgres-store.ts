// The task store on PostgreSQL (pg Pool), for many API nodes and worker processes sharing one schema.
// Charging, claiming and batch creation use row locks, SKIP LOCKED and unnest (src/db/tasks/*.postgres.ts);
// everything else is the shared SQL of src/db/tasks/. Changes are announced to other processes over LISTEN/NOTIFY after
// they commit (src/db/postgres-notifier.ts); workers and waiters also poll, so a lost one costs only latency.
import { PostgresDb } from '../postgres.js';
import { channelName, PostgresNotifier } from '../postgres-notifier.js';
import { clientConfig, type PostgresConnectionOptions } from '../postgres-pool.js';
import { claimTasksPostgres } from './claim-tasks.postgres.js';
import { insertBatchTasksPostgres } from './create-batch.postgres.js';
import { insertChargedPostgres, insertManyChargedPostgres } from './insert-charged.postgres.js';
import { SqlTaskStore } from './task-store.js';

export class PostgresStore extends SqlTaskStore<PostgresDb> {
  private readonly notifier: PostgresNotifier;
  private closing: Promise<void> | undefined;

  constructor(o: PostgresConnectionOptions) {
    const db = new PostgresDb(o);
    const config = { ...clientConfig(o), application_name: `${o.applicationName ?? 'agent-utility'}:listen` };
    const notifier = new PostgresNotifier(
      config,
      (sql, params) => db.pool.query(sql, params),
      (err) => o.onError?.(db.faults.fault(err) as Error),
    );
    super(
      db,
      {
        insert: insertChargedPostgres,
        // One statement charges and inserts, so a plain creation needs no explicit transaction.
        plain: (task, keyId) => insertChargedPostgres(db, task, keyId),
        insertMany: insertManyChargedPostgres,
        claimTasks: (c) => claimTasksPostgres(db, c),
        insertBatchTasks: insertBatchTasksPostgres,
      },
      (event, item) => notifier.publish(channelName(o.schema, event), item),
    );
    this.notifier = notifier;
  }

  onTaskAvailable = (listener: (tool: string) => void) => this.notifier.subscribe(channelName(this.db.schema, 'task_available'), listener);
  onTaskSettled = (listener: (taskId: string) => void) => this.notifier.subscribe(channelName(this.db.schema, 'task_settled'), listener);

  /** Sends the queued wake-ups, stops listening, then ends the pool; once, however often it is called. */
  override close(): Promise<void> {
    return (this.closing ??= this.notifier.close().then(() => super.close()));
  }
}
