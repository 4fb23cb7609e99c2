// One migration runner for every store and both dialects. Each component (the task store, the lead
// service…) keeps numbered files per dialect, <dir>/<dialect>/NNN_name.sql, applied in order and
// recorded in one ledger table, db_migrations (component, version). They run under a lock, so many
// processes starting at once apply each migration exactly once: a PostgreSQL advisory lock per schema,
// or one SQLite BEGIN IMMEDIATE transaction around the whole run. The build copies the .sql files next
// to the compiled code (scripts/copy-assets.mjs).
//
// Earlier releases kept a ledger per component (schema_migrations, lead_schema_migrations,
// leads_schema_migrations). A component names its old ledger and every run copies the versions found
// there into db_migrations (ignoring those already copied), so an upgraded deployment re-runs nothing.
// The old ledger is read, never written or dropped: a process of the previous release restarting during
// a rolling upgrade still finds its migrations applied (it knows none of the newer ones).
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DialectName } from './dialect.js';
import { assertSchemaName } from './postgres-pool.js';
import { postgresSql } from './postgres.js';
import type { Sql } from './sql.js';
import type pg from 'pg';
import { SqliteDb } from './sqlite.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export interface MigrationSet {
  /** Who owns these migrations ('tasks', 'leads'): versions are numbered per component. */
  component: string;
  /** This dialect's migrations (see loadMigrations). */
  migrations: readonly Migration[];
  /** The component's ledger in earlier releases, whose versions count as applied. */
  legacyLedger?: string;
}

export const LEDGER = 'db_migrations';

/** The NNN_name.sql files of `dir`/`dialect`/, in order. */
export function loadMigrations(dir: URL, dialect: DialectName): Migration[] {
  const folder = fileURLToPath(new URL(`${dialect}/`, dir));
  return fs
    .readdirSync(folder)
    .filter((f) => /^\d+_.+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.split('_')[0]), name: f, sql: fs.readFileSync(`${folder}${f}`, 'utf8') }));
}

const TABLE_EXISTS: Record<DialectName, string> = {
  sqlite: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = $1",
  postgres: 'SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = $1',
};
const RECORD = `INSERT INTO ${LEDGER} (component, version, name, applied_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`;

/** Runs under the migration lock: `atomically` is a transaction of its own on PostgreSQL (SQLite is already in one). */
async function applyPending(c: Sql, set: MigrationSet, script: (sql: string) => Promise<unknown>, atomically: (fn: () => Promise<void>) => Promise<void>) {
  await script(`CREATE TABLE IF NOT EXISTS ${LEDGER} (component text NOT NULL, version integer NOT NULL, name text NOT NULL,
    applied_at bigint NOT NULL, PRIMARY KEY (component, version))`);
  const legacy = set.legacyLedger && assertSchemaName(set.legacyLedger);
  if (legacy && (await c.one(TABLE_EXISTS[c.dialect.name], [legacy]))) {
    await atomically(async () => {
      for (const r of await c.all<Record<string, unknown>>(`SELECT * FROM ${legacy}`)) {
        const version = Number(r.version);
        const name = typeof r.name === 'string' ? r.name : (set.migrations.find((m) => m.version === version)?.name ?? String(version));
        await c.run(RECORD, [set.component, version, name, Number(r.applied_at)]);
      }
    });
  }
  const applied = new Set(
    (await c.all<{ version: number }>(`SELECT version FROM ${LEDGER} WHERE component = $1`, [set.component])).map((r) => Number(r.version)),
  );
  for (const m of set.migrations.filter((m) => !applied.has(m.version))) {
    await atomically(async () => {
      await script(m.sql).catch((err: Error) => {
        throw new Error(`migration ${set.component}/${m.name} failed: ${err.message}`, { cause: err });
      });
      await c.run(RECORD, [set.component, m.version, m.name, Date.now()]);
    });
  }
}

/** Applies the set's pending migrations on SQLite, all in one BEGIN IMMEDIATE transaction. */
export function migrateSqlite(db: SqliteDb, set: MigrationSet): Promise<void> {
  return db.transaction((tx) =>
    applyPending(
      tx,
      set,
      async (sql) => db.raw.exec(sql),
      (fn) => fn(),
    ),
  );
}

/**
 * Applies the set's pending migrations on PostgreSQL, each in its own transaction, under an advisory
 * lock per schema: concurrent starters wait for the first, which leaves them nothing to do. The lock key
 * is the one earlier releases used, so old and new processes starting together also wait for each other.
 */
export async function migratePostgres(db: { pool: pg.Pool; schema: string }, set: MigrationSet): Promise<void> {
  const schema = assertSchemaName(db.schema);
  const client = await db.pool.connect();
  const lock = "(hashtext('agent-utility:migrate'), hashtext($1))";
  let broken = false;
  try {
    await client.query(`SELECT pg_advisory_lock${lock}`, [schema]);
    try {
      // Checked first: CREATE SCHEMA needs the CREATE privilege on the database even when the schema exists.
      if ((await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).rowCount === 0) await client.query(`CREATE SCHEMA ${schema}`);
      const atomically = async (fn: () => Promise<void>) => {
        await client.query('BEGIN');
        await fn().catch(async (err: unknown) => {
          await client.query('ROLLBACK');
          throw err;
        });
        await client.query('COMMIT');
      };
      await applyPending(postgresSql(client), set, (sql) => client.query(sql), atomically);
    } finally {
      await client.query(`SELECT pg_advisory_unlock${lock}`, [schema]).catch(() => (broken = true));
    }
  } finally {
    client.release(broken);
  }
}

/** Applies the set's pending migrations on whichever database `db` is. */
export function migrate(db: SqliteDb | { pool: pg.Pool; schema: string }, set: MigrationSet): Promise<void> {
  return db instanceof SqliteDb ? migrateSqlite(db, set) : migratePostgres(db, set);
}
