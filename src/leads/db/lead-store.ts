// The lead store on either database: every LeadStore method is one operation file in this folder, written
// once for both dialects (the few dialect differences are named inside the operation that has them).
// SQLite lives in DATA_DIR/leads.db; on PostgreSQL the lead tables share the task store's schema.
// Notifications are written to the service's one outbox, the task store's webhook_outbox (docs/webhooks.md),
// in the request's own transaction: on PostgreSQL it is in the same schema; on SQLite the connection
// attaches the task database (DATA_DIR/agent-utility.db) as `outbox`, so the unqualified table names of
// the shared SQL reach it. The task schema is brought up to date first: the lead migrations and the
// outbox writes need its tables.
import path from 'node:path';
import { CREATE_LEDGER } from '../../db/migration-ledger.js';
import { migrate } from '../../db/migrate.js';
import { bindOperations } from '../../db/operations.js';
import type { PlanDb } from '../../db/plan.js';
import type { Sql } from '../../db/sql.js';
import { PostgresDb } from '../../db/postgres.js';
import type { PostgresConnectionOptions } from '../../db/postgres-pool.js';
import { SqliteDb } from '../../db/sqlite.js';
import { taskMigrations } from '../../db/tasks/migrations.js';
import type { LeadStore } from '../store.js';
import { leadMigrations } from './migrations.js';
import * as operations from './operations.js';

/** A LeadStore whose connection is at hand (tests and benchmarks look inside). */
export type SqlLeadStore<D extends PlanDb = PlanDb> = LeadStore & { readonly db: D };

export type SqliteLeadStore = SqlLeadStore<SqliteDb>;

/** The task database next to a lead database: where the outbox is (the task store's default file name). */
export function outboxFileFor(leadFile: string): string {
  return path.join(path.dirname(leadFile), 'agent-utility.db');
}

/**
 * Opens (creating if needed) and migrates the SQLite lead database, with the task database holding the
 * outbox (`outboxFile`, by default agent-utility.db beside it) migrated and attached.
 */
export async function openSqliteLeadStore(file: string, outboxFile = outboxFileFor(file)): Promise<SqliteLeadStore> {
  const tasks = new SqliteDb(outboxFile);
  try {
    await migrate(tasks, taskMigrations('sqlite'));
  } finally {
    tasks.close();
  }
  // It writes the task database, which this process may also write through the task store's connection.
  const db = new SqliteDb(file, { busy: 'yield' });
  try {
    // Unqualified names resolve to the main database first, then to attached ones: the lead database gets
    // its own migration ledger before the task database (which has one too) is attached.
    db.raw.exec(CREATE_LEDGER);
    db.raw.prepare('ATTACH DATABASE ? AS outbox').run(outboxFile);
  } catch (err) {
    db.raw.close();
    throw err;
  }
  return migrated(db);
}

/** Opens the pool and applies the task migrations (the outbox), then the lead ones (under the advisory lock: safe with many starters). */
export function openPostgresLeadStore(o: PostgresConnectionOptions): Promise<SqlLeadStore<PostgresDb>> {
  const db = new PostgresDb({ ...o, applicationName: o.applicationName ?? 'agent-utility:leads' });
  return migrated(db, () => migrate(db, taskMigrations('postgres')));
}

/** The lead store on `db`, once the lead migrations are applied (the connection is closed when they fail). */
async function migrated<D extends PlanDb>(db: D, before?: () => Promise<void>): Promise<SqlLeadStore<D>> {
  try {
    await before?.();
    await migrate(db, leadMigrations(db.dialect.name));
  } catch (err) {
    await db.close();
    throw err;
  }
  let closing: Promise<void> | undefined;
  return { ...bindOperations(db, operations), dialect: db.dialect.name, db, close: () => (closing ??= Promise.resolve(db.close())) };
}

/**
 * Whether the task store's connection `tasks` and the lead store's `leads` reach the same outbox table:
 * the same PostgreSQL schema, or on SQLite the task database file the lead connection attached.
 */
export function sameOutbox(tasks: Sql, leads: PlanDb): boolean {
  if (tasks.dialect.name !== leads.dialect.name) return false;
  if (leads instanceof SqliteDb) {
    const file = (tasks as Partial<SqliteDb>).raw?.name;
    const attached = leads.raw.prepare('PRAGMA database_list').all() as { name: string; file: string }[];
    const outbox = attached.find((d) => d.name === 'outbox')?.file;
    return file !== undefined && outbox !== undefined && path.resolve(file) === path.resolve(outbox);
  }
  return (tasks as Partial<PostgresDb>).schema === leads.schema;
}
