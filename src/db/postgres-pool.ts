// The PostgreSQL connection pieces every store needs: a pool pinned to one schema, bigint parsed as a
// number, and a one-transaction helper (retried on deadlock or serialization failure). Migrations are
// applied by migrate.ts.
import pg from 'pg';
import { assertSchemaName } from './schema-name.js';

export interface PostgresConnectionOptions {
  connectionString: string;
  /** Schema holding every table (created when missing). */
  schema: string;
  /** Connections in this process's pool. */
  poolSize: number;
  applicationName?: string;
  /** More server settings for every connection, e.g. `-c synchronous_commit=off`. */
  serverOptions?: string;
  /** Let the process exit while only idle connections remain (a pool nobody closes). */
  allowExitOnIdle?: boolean;
  /** Where connection problems of idle (and, in the task store, listening) connections are reported. */
  onError?: (err: Error) => void;
}

// int8 (bigint, COUNT(*)) arrives as text by default; every bigint here is a millisecond time or a
// micro-USD amount, far inside Number's exact range, so parse it and refuse anything that is not.
function parseBigint(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new Error(`bigint ${text} is outside the exact range of a JavaScript number`);
  return n;
}

const INT8_OID = 20;
/** Type parsers with bigint as number (for any client that reads these tables). */
export const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary' ? parseBigint : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/** Splits `options=` out of the URL: pg lets the URL's options replace ours, and we need both. */
function splitOptions(connectionString: string): { url: string; options: string | undefined } {
  try {
    const url = new URL(connectionString);
    const options = url.searchParams.get('options') ?? undefined;
    if (options === undefined) return { url: connectionString, options };
    url.searchParams.delete('options');
    return { url: url.toString(), options };
  } catch {
    return { url: connectionString, options: undefined };
  }
}

export function clientConfig(o: PostgresConnectionOptions): pg.ClientConfig {
  const { url, options } = splitOptions(o.connectionString);
  return {
    connectionString: url,
    // search_path set at connection start, so every query on every pooled connection sees one schema.
    options: `${options ? `${options} ` : ''}-c search_path=${assertSchemaName(o.schema)}${o.serverOptions ? ` ${o.serverOptions}` : ''}`,
    application_name: o.applicationName ?? 'agent-utility',
    types,
  };
}

export function createPool(o: PostgresConnectionOptions): pg.Pool {
  const pool = new pg.Pool({
    ...clientConfig(o),
    max: o.poolSize,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    ...(o.allowExitOnIdle ? { allowExitOnIdle: true } : {}),
  });
  // An idle connection that breaks (server restart, network) emits 'error' on the pool; without a
  // listener that would crash the process. The pool drops the connection and opens a new one on demand.
  pool.on('error', (err) => o.onError?.(err));
  return pool;
}

const RETRYABLE = new Set(['40001', '40P01']); // serialization_failure, deadlock_detected

/** A checked-out connection and whether it broke while we held it. */
export interface CheckedOut {
  client: pg.PoolClient;
  /** True once the connection reported an error; it must then be discarded, not reused. */
  readonly broken: boolean;
  /** Gives the connection back (discarding it if it broke, or if `discard`) and stops listening to it. */
  release(discard?: boolean): void;
}

/**
 * Checks a connection out with an 'error' listener attached before anything else can run. A connection
 * that broke while checked out emits 'error' on the client, not the pool, and without a listener that
 * crashes the process. `await pool.connect()` leaves a gap: the pool hands a released connection to the
 * next waiter synchronously, but the waiter's code runs a microtask later, and when the server's last
 * reply and its "terminating connection" notice arrive in one read (pg_ctl stop, pg_terminate_backend),
 * the notice is emitted inside that gap (brianc/node-postgres#2762). The callback form has no gap.
 */
export function checkOut(pool: pg.Pool): Promise<CheckedOut> {
  return new Promise((resolve, reject) => {
    pool.connect((err, client, done) => {
      if (err || !client) return reject(err ?? new Error('the PostgreSQL pool gave no connection'));
      let broken = false;
      const onError = () => {
        broken = true;
      };
      client.on('error', onError);
      resolve({
        client,
        get broken() {
          return broken;
        },
        release(discard = false) {
          client.off('error', onError);
          done(broken || discard);
        },
      });
    });
  });
}

/** Runs `fn` in one transaction on one connection; commits its result, rolls back on any throw. */
export async function inTransaction<T>(pool: pg.Pool, fn: (tx: pg.PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    // The next query on a connection that broke fails, so the transaction throws; checkOut discards it.
    const held = await checkOut(pool);
    const { client } = held;
    let rollbackFailed = false;
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {
        rollbackFailed = true;
      });
      if (attempt < 5 && RETRYABLE.has(pgCode(err) ?? '')) continue;
      throw err;
    } finally {
      held.release(rollbackFailed);
    }
  }
}

function pgCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}
