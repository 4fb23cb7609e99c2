// A SQLite connection (better-sqlite3, WAL) for every store: one file, several processes may share it.
// Statements are prepared once per SQL text (preparing costs more than running these small statements).
// better-sqlite3 is synchronous, so operations whose concurrency matters run in `immediate`: one
// BEGIN IMMEDIATE transaction that takes the write lock first, so writers queue on the lock instead of
// failing mid-way, and checks and writes are atomic even across processes.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sqlite } from './dialect.js';
import type { Sql } from './sql.js';
import { StoreFaults } from './store-faults.js';
import { WalCheckpointer } from './wal-checkpointer.js';

/** A cached statement, with the order in which the $n placeholders it was written with appear. */
export class SqliteStatement {
  constructor(
    private readonly st: Database.Statement,
    /** Parameter index per `?`, or undefined when the $n appear once each, in order. */
    private readonly order: number[] | undefined,
  ) {}

  private bind(values: readonly unknown[]): unknown[] {
    return this.order ? this.order.map((i) => values[i]) : (values as unknown[]);
  }

  get = <R>(values: readonly unknown[] = []) => this.st.get(...this.bind(values)) as R | undefined;
  all = <R>(values: readonly unknown[] = []) => this.st.all(...this.bind(values)) as R[];
  /** Rows changed. */
  run = (values: readonly unknown[] = []) => this.st.run(...this.bind(values)).changes;
}

/** better-sqlite3 binds `?` by position only, so $n (which may repeat) become `?` with an index map. */
function positional(text: string): { text: string; order: number[] | undefined } {
  const order: number[] = [];
  const out = text.replace(/\$(\d+)/g, (_, n: string) => {
    order.push(Number(n) - 1);
    return '?';
  });
  return { text: out, order: order.every((n, i) => n === i) ? undefined : order };
}

export class SqliteDb implements Sql {
  readonly dialect = sqlite;
  readonly raw: Database.Database;
  private readonly statements = new Map<string, SqliteStatement>();
  /** Outages seen by this connection (disk full, I/O errors, lock timeouts); thrown as StoreUnavailable. */
  readonly faults = new StoreFaults();
  /** Calls tried again because another connection held the write lock (`busy: 'yield'` only). */
  get busyRetries(): number {
    return this.faults.lockRetries;
  }
  /** One transaction wrapper, built once: creating one per call showed up in profiles of the hot path. */
  private readonly runInTransaction: Database.Transaction<(fn: () => unknown) => unknown>;
  /** True while an asynchronous transaction holds the connection; other callers wait in `waiting`. */
  private inTransaction = false;
  private readonly waiting: (() => void)[] = [];
  /** What an asynchronous transaction runs its statements on: the connection, past the wait. */
  private readonly tx: Sql = {
    dialect: sqlite,
    one: async (text, values) => this.sql(text).get(values),
    all: async (text, values) => this.sql(text).all(values),
    run: async (text, values) => this.sql(text).run(values),
    transaction: (fn) => fn(this.tx),
  };

  /** How a statement meets another connection's write lock: see the constructor. */
  private readonly watch: <T>(call: () => Promise<T>) => Promise<T>;
  private readonly checkpointer: WalCheckpointer | undefined;

  /**
   * `busy: 'wait'` (the default) waits for another connection's write lock inside SQLite, blocking the
   * thread up to 5 s: for tools and tests, whose thread has nothing else to do. `busy: 'yield'` fails fast
   * instead, and the call is tried again after a timer (the lock was never taken, so nothing ran), for up
   * to the same 5 s. It is for a server, whose thread serves other requests meanwhile: SQLite's own wait
   * sleeps in steps (1, 2, 5, 10, 15, 20, 25… ms) and sees a freed lock only at the next step, with the
   * event loop stopped throughout: in the soak (`serve --no-workers` beside `worker`), the API's waits on
   * the worker's lock took 18, 33, 53, 78 or 128 ms, the steps' sums, several a second. And it is for
   * a second connection to a file this process already writes through another (the lead store, which
   * attaches the task database): a blocking wait there could never end, because the holder's transaction
   * needs this thread to finish.
   *
   * `checkpoints: 'background'` moves WAL checkpoints to a thread of their own (wal-checkpointer.ts): for
   * a long-lived server, whose commits would otherwise now and then copy the WAL and fsync inline.
   */
  constructor(file: string, opts: { busy?: 'wait' | 'yield'; checkpoints?: 'inline' | 'background' } = {}) {
    if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
    this.raw = new Database(file);
    this.raw.pragma('journal_mode = WAL');
    this.raw.pragma('synchronous = NORMAL');
    this.raw.pragma(opts.busy === 'yield' ? 'busy_timeout = 0' : 'busy_timeout = 5000');
    const countRetry = () => void this.faults.lockRetries++;
    this.watch = opts.busy === 'yield' ? (call) => this.faults.watch(() => retryWhileBusy(call, countRetry)) : (call) => this.faults.watch(call);
    this.raw.pragma('foreign_keys = ON');
    this.runInTransaction = this.raw.transaction((fn: () => unknown) => fn());
    if (opts.checkpoints === 'background' && file !== ':memory:') this.checkpointer = new WalCheckpointer(this.raw, file);
  }

  /** The cached statement for `text` ($n placeholders). */
  sql(text: string): SqliteStatement {
    let st = this.statements.get(text);
    if (!st) {
      const p = positional(text);
      st = new SqliteStatement(this.raw.prepare(p.text), p.order);
      this.statements.set(text, st);
    }
    return st;
  }

  /**
   * Runs the synchronous `fn` in one BEGIN IMMEDIATE transaction, after any asynchronous transaction
   * in progress on this connection.
   */
  immediate = <T>(fn: () => T): Promise<T> => this.watch(() => this.whenFree(() => this.runInTransaction.immediate(fn) as T));

  /**
   * Runs the synchronous, read-only `fn` in one deferred transaction: one snapshot for all its statements,
   * without the write lock, so another process's writers are not held up while it reads (WAL readers never
   * block writers). Whatever it decides from the snapshot must be checked again by the write that acts on it.
   */
  snapshot = <T>(fn: () => T): Promise<T> => this.watch(() => this.whenFree(() => this.runInTransaction.deferred(fn) as T));

  one = <R>(text: string, values?: readonly unknown[]): Promise<R | undefined> => this.watch(() => this.whenFree(() => this.sql(text).get<R>(values)));
  all = <R>(text: string, values?: readonly unknown[]): Promise<R[]> => this.watch(() => this.whenFree(() => this.sql(text).all<R>(values)));
  run = (text: string, values?: readonly unknown[]): Promise<number> => this.watch(() => this.whenFree(() => this.sql(text).run(values)));

  /**
   * An asynchronous transaction for shared code written against `Sql`. The connection is one per
   * process, so statements of other callers must not slip in between this transaction's awaits: they
   * wait until it ends (they would otherwise run inside it).
   */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    return this.watch(() => this.transactionUnwatched(fn));
  }

  private transactionUnwatched<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    return this.whenFree(async () => {
      this.inTransaction = true;
      try {
        this.sql('BEGIN IMMEDIATE').run();
        const result = await fn(this.tx);
        this.sql('COMMIT').run();
        return result;
      } catch (err) {
        if (this.raw.inTransaction) this.sql('ROLLBACK').run();
        throw err;
      } finally {
        this.inTransaction = false;
        for (const wake of this.waiting.splice(0)) wake();
      }
    });
  }

  /**
   * Runs `fn` once no asynchronous transaction holds the connection: checked again after every wait, and
   * `fn` starts with no await after the last check, so a transaction that starts in it takes the connection.
   */
  private async whenFree<T>(fn: () => T | Promise<T>): Promise<T> {
    while (this.inTransaction) await new Promise<void>((resolve) => this.waiting.push(resolve));
    return fn();
  }

  close(): void {
    this.checkpointer?.stop();
    if (this.raw.open) this.raw.close();
  }
}

/** SQLITE_BUSY from a connection that does not wait: the write lock is another connection's right now. */
function isBusy(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'SQLITE_BUSY';
}

/** Retries 1 ms apart for this long: the other process's transactions are short, so the lock is seen as soon as it is free. */
const FINE_RETRY_MS = 50;

/**
 * Tries `call` again after a short timer while it meets a held lock, up to 5 s in all (then the error
 * goes on): every 1 ms at first, then backing off to 50 ms for a lock held long (each try costs a failed
 * BEGIN, a few microseconds).
 */
async function retryWhileBusy<T>(call: () => Promise<T>, onRetry: () => void): Promise<T> {
  const started = Date.now();
  for (let wait = 1; ;) {
    try {
      return await call();
    } catch (err) {
      const waited = Date.now() - started;
      if (!isBusy(err) || waited > 5_000) throw err;
      onRetry();
      if (waited > FINE_RETRY_MS) wait = Math.min(wait * 2, 50);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
