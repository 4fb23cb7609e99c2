// A transaction written once for both dialects, as a generator of statements (`const row = yield* one(…)`).
// SQLite runs it synchronously inside one BEGIN IMMEDIATE: no await ever holds the write lock while
// another connection of this process (a second store on the same file) waits on it, and nothing else runs
// on the connection between its statements. PostgreSQL runs the same statements in one transaction on one
// pooled client (retried from the start on a deadlock or serialization failure: the plan is built anew).
// A plan that throws Rollback(value) has its writes undone and returns value. runReads runs a plan's
// statements without a transaction, for reads that need no common snapshot.
import type { Dialect } from './dialect.js';
import { PostgresDb } from './postgres.js';
import { orRollback, type Sql } from './sql.js';
import type { SqliteDb } from './sqlite.js';

interface Statement {
  kind: 'one' | 'all' | 'run';
  text: string;
  values: readonly unknown[];
}

export type Plan<T> = Generator<Statement, T, unknown>;

/** A database a plan runs on. */
export type PlanDb = SqliteDb | PostgresDb;

/** One statement of a plan; answers what `Sql[kind]` would. */
function* statement<T>(kind: Statement['kind'], text: string, values: readonly unknown[]): Plan<T> {
  return (yield { kind, text, values }) as T;
}

export const one = <R>(text: string, values: readonly unknown[] = []) => statement<R | undefined>('one', text, values);
export const all = <R>(text: string, values: readonly unknown[] = []) => statement<R[]>('all', text, values);
/** Rows changed. */
export const run = (text: string, values: readonly unknown[] = []) => statement<number>('run', text, values);

function drive<T>(steps: Plan<T>, exec: (s: Statement) => unknown): T {
  for (let step = steps.next(); ; step = steps.next(exec(step.value))) if (step.done) return step.value;
}

async function driveAsync<T>(steps: Plan<T>, exec: (s: Statement) => Promise<unknown>): Promise<T> {
  for (let step = steps.next(); ; step = steps.next(await exec(step.value))) if (step.done) return step.value;
}

const onSqlite = (db: SqliteDb) => (s: Statement) => db.sql(s.text)[s.kind === 'one' ? 'get' : s.kind](s.values);
const onSql = (sql: Sql) => (s: Statement) => sql[s.kind](s.text, s.values);

export function runPlan<T>(db: PlanDb, plan: (d: Dialect) => Plan<T>): Promise<T> {
  if (db instanceof PostgresDb) return orRollback(() => db.transaction((tx) => driveAsync(plan(tx.dialect), onSql(tx))));
  return orRollback(() => db.immediate(() => drive(plan(db.dialect), onSqlite(db))));
}

/** Runs the plan's statements one by one, outside a transaction (reads that need no snapshot together). */
export function runReads<T>(db: PlanDb, plan: (d: Dialect) => Plan<T>): Promise<T> {
  return driveAsync(plan(db.dialect), onSql(db));
}
