// PostgreSQL for tests: every test run gets a schema of its own in the shared `test` database (CI and
// developers run PostgreSQL at 127.0.0.1:5432 with trust auth), dropped again when the run is done.
// Schemas left by a test process that was killed are swept after an hour.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { types } from '../../src/db/postgres-pool.js';
import { PostgresStore } from '../../src/db/tasks/postgres-store.js';

/** The throwaway cluster `npm test` (scripts/test-postgres.mjs) started where nothing answered on 5432. */
function throwawayClusterUrl(): string | undefined {
  const file = path.resolve(import.meta.dirname, '../../node_modules/.cache/agent-utility/test-postgres.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { url: string }).url : undefined;
}

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? throwawayClusterUrl() ?? 'postgres://postgres@127.0.0.1:5432/test';

const PREFIX = 'au_t_';
let swept = false;

/** A fresh, unused schema name: au_t_<unix seconds>_<random>. */
export function newTestSchemaName(): string {
  return `${PREFIX}${Math.floor(Date.now() / 1000)}_${randomBytes(5).toString('hex')}`;
}

async function withClient<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, types });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function dropTestSchema(schema: string): Promise<void> {
  if (!schema.startsWith(PREFIX)) throw new Error(`refusing to drop ${schema}: not a test schema`);
  await withClient((c) => c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
}

async function sweepStaleSchemas(): Promise<void> {
  if (swept) return;
  swept = true;
  const cutoff = Math.floor(Date.now() / 1000) - 3600;
  await withClient(async (c) => {
    const r = await c.query<{ nspname: string }>("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'au\\_t\\_%'");
    for (const { nspname } of r.rows) {
      const born = Number(/^au_t_(\d+)_/.exec(nspname)?.[1]);
      if (Number.isFinite(born) && born < cutoff) await c.query(`DROP SCHEMA IF EXISTS ${nspname} CASCADE`).catch(() => undefined);
    }
  });
}

export interface TestSchema {
  schema: string;
  /** DATABASE_URL / DATABASE_SCHEMA for a process (CLI or runtime) that should use this schema. */
  env: { DATABASE_URL: string; DATABASE_SCHEMA: string };
  /** A store on this schema (migrated); close it yourself. */
  openStore(opts?: { poolSize?: number }): Promise<PostgresStore>;
  query<R extends pg.QueryResultRow = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<R[]>;
  drop(): Promise<void>;
}

/** Creates (and migrates) a schema of its own for one test file or one test. */
export async function createTestSchema(): Promise<TestSchema> {
  await sweepStaleSchemas();
  const schema = newTestSchemaName();
  const openStore = async (opts: { poolSize?: number } = {}) => {
    const store = new PostgresStore({ connectionString: TEST_DATABASE_URL, schema, poolSize: opts.poolSize ?? 10 });
    await store.migrate();
    return store;
  };
  await (await openStore({ poolSize: 1 })).close();
  return {
    schema,
    env: { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema },
    openStore,
    query: (sql, params) =>
      withClient(async (c) => {
        await c.query(`SET search_path = ${schema}`);
        return (await c.query(sql, params)).rows;
      }),
    drop: () => dropTestSchema(schema),
  };
}
