// The PostgreSQL side of `Sql`: a pool pinned to one schema (postgres-pool.ts). Named statements are
// kept per connection by pg, so hot operations pass a name and are parsed and planned once per
// connection (a quarter of the server's time per task went to parsing otherwise).
import type pg from 'pg';
import { postgres } from './dialect.js';
import { createPool, inTransaction, type PostgresConnectionOptions } from './postgres-pool.js';
import type { Sql } from './sql.js';
import { StoreFaults } from './store-faults.js';

type Client = Pick<pg.PoolClient, 'query'>;

/** `Sql` on one client (a pool, or one connection); a transaction on a single connection stays on it. */
export function postgresSql(client: Client, transaction: Sql['transaction'] = (fn) => fn(postgresSql(client))): Sql {
  const query = (text: string, values: readonly unknown[] = [], name?: string) =>
    client.query(name ? { name, text, values: values as unknown[] } : { text, values: values as unknown[] });
  return {
    dialect: postgres,
    one: async <R>(text: string, values?: readonly unknown[], name?: string) => (await query(text, values, name)).rows[0] as R | undefined,
    all: async <R>(text: string, values?: readonly unknown[], name?: string) => (await query(text, values, name)).rows as R[],
    run: async (text, values, name) => (await query(text, values, name)).rowCount ?? 0,
    transaction,
  };
}

export class PostgresDb implements Sql {
  readonly dialect = postgres;
  readonly pool: pg.Pool;
  readonly schema: string;
  private readonly sql: Sql;

  /** Outages seen by this pool's statements (store-faults.ts); their errors are thrown as StoreUnavailable. */
  readonly faults = new StoreFaults();

  one = <R>(text: string, values?: readonly unknown[], name?: string) => this.faults.watch(() => this.sql.one<R>(text, values, name));
  all = <R>(text: string, values?: readonly unknown[], name?: string) => this.faults.watch(() => this.sql.all<R>(text, values, name));
  run = (text: string, values?: readonly unknown[], name?: string) => this.faults.watch(() => this.sql.run(text, values, name));

  constructor(readonly options: PostgresConnectionOptions) {
    this.schema = options.schema;
    // A broken idle connection is an outage sign too (the server restarting): noted, then reported.
    this.pool = createPool({ ...options, onError: (err) => options.onError?.(this.faults.fault(err) as Error) });
    this.sql = postgresSql(this.pool, (fn) => this.transaction(fn));
  }

  /** One transaction on one connection, run again on a deadlock or serialization failure (see inTransaction). */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    return this.faults.watch(() => inTransaction(this.pool, (client) => fn(postgresSql(client))));
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
