// The one interface shared operations are written against: run one statement, get its rows or the number
// of rows it changed, or run several in one transaction. Implemented by the SQLite connection (sqlite.ts)
// and the PostgreSQL pool (postgres.ts). Text uses $1, $2… placeholders on both dialects.
import type { Dialect } from './dialect.js';

export interface Sql {
  readonly dialect: Dialect;
  /**
   * The first row, or undefined. `name` makes it a named prepared statement on PostgreSQL (parsed and
   * planned once per connection; for hot statements). Named statements must list their columns rather
   * than `*`: a cached `*` plan fails once a later migration adds a column under a running process.
   */
  one<R>(text: string, values?: readonly unknown[], name?: string): Promise<R | undefined>;
  all<R>(text: string, values?: readonly unknown[], name?: string): Promise<R[]>;
  /** Rows changed (inserted, updated, deleted). */
  run(text: string, values?: readonly unknown[], name?: string): Promise<number>;
  /**
   * Runs `fn` in one transaction (BEGIN IMMEDIATE on SQLite: it holds the write lock from the start).
   * Commits what it returns, rolls back on a throw. Inside, use only `tx`.
   */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
}

/** Thrown inside a transaction to roll it back and hand a value out (an outcome that must leave no trace). */
export class Rollback<T> extends Error {
  constructor(readonly value: T) {
    super('rollback');
  }
}

/** Runs a transaction (`db.transaction(…)`, a plan); a Rollback thrown inside undoes it and becomes the answer. */
export async function orRollback<T>(transaction: () => Promise<T>): Promise<T> {
  try {
    return await transaction();
  } catch (err) {
    if (err instanceof Rollback) return err.value as T;
    throw err;
  }
}
