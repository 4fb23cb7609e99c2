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

/** What the runner needs of a connection that already holds the migration lock. */
interface Locked {
  dialect: DialectName;
  rows(text: string, values?: readonly unknown[]): Promise<Record<string, unknown>[]>;
  write(text: string, values: readonly unknown[]): Promise<unknown>;
  script(sql: string): Promise<void>;
  /** Runs `fn` atomically (its own transaction on PostgreSQL; SQLite is already inside one). */
  atomically(fn: () => Promise<void>): Promise<void>;
}

const TABLE_EXISTS: Record<DialectName, string> = {
  sqlite: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = $1",
  postgres: 'SELECT 1 FROM pg_tables WHERE schemaname = current_schema() AND tablename = $1',
};

async function applyPending(c: Locked, set: MigrationSet): Promise<void> {
  await c.script(`CREATE TABLE IF NOT EXISTS ${LEDGER} (
    component text NOT NULL, version integer NOT NULL, name text NOT NULL, applied_at bigint NOT NULL,
    PRIMARY KEY (component, version))`);
  const legacy = set.legacyLedger && assertSchemaName(set.legacyLedger);
  if (legacy && (await c.rows(TABLE_EXISTS[c.dialect], [legacy])).length > 0) {
    await c.atomically(async () => {
      for (const r of await c.rows(`SELECT * FROM ${legacy}`)) {
        const version = Number(r.version);
        const name = typeof r.name === 'string' ? r.name : (set.migrations.find((m) => m.version === version)?.name ?? String(version));
        await c.write(`INSERT INTO ${LEDGER} (component, version, name, applied_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`, [
          set.component,
          version,
          name,
          Number(r.applied_at),
        ]);
      }
    });
  }
  const applied = new Set((await c.rows(`SELECT version FROM ${LEDGER} WHERE component = $1`, [set.component])).map((r) => Number(r.version)));
  for (const m of set.migrations) {
    if (applied.has(m.version)) continue;
    await c.atomically(async () => {
      try {
        await c.script(m.sql);
      } catch (err) {
        throw new Error(`migration ${set.component}/${m.name} failed: ${(err as Error).message}`, { cause: err });
      }
      await c.write(`INSERT INTO ${LEDGER} (component, version, name, applied_at) VALUES ($1, $2, $3, $4)`, [set.component, m.version, m.name, Date.now()]);
    });
  }
}

/** Applies the set's pending migrations on SQLite, all in one BEGIN IMMEDIATE transaction. */
export async function migrateSqlite(db: SqliteDb, set: MigrationSet): Promise<void> {
  await db.transaction(async (tx) => {
    await applyPending(
      {
        dialect: 'sqlite',
        rows: (text, values) => tx.all(text, values),
        write: (text, values) => tx.run(text, values),
        script: async (sql) => void db.raw.exec(sql),
        atomically: (fn) => fn(),
      },
      set,
    );
  });
}

/**
 * Applies the set's pending migrations on PostgreSQL, each in its own transaction, under an advisory
 * lock per schema: concurrent starters wait for the first, which leaves them nothing to do. The lock key
 * is the one earlier releases used, so old and new processes starting together also wait for each other.
 */
export async function migratePostgres(db: { pool: pg.Pool; schema: string }, set: MigrationSet): Promise<void> {
  const schema = assertSchemaName(db.schema);
  const client = await db.pool.connect();
  let broken = false;
  try {
    await client.query("SELECT pg_advisory_lock(hashtext('agent-utility:migrate'), hashtext($1))", [schema]);
    try {
      // Checked first: CREATE SCHEMA needs the CREATE privilege on the database even when the schema exists.
      const exists = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
      if (exists.rowCount === 0) await client.query(`CREATE SCHEMA ${schema}`);
      await applyPending(
        {
          dialect: 'postgres',
          rows: async (text, values) => (await client.query(text, values as unknown[])).rows as Record<string, unknown>[],
          write: (text, values) => client.query(text, values as unknown[]),
          script: async (sql) => void (await client.query(sql)),
          atomically: async (fn) => {
            await client.query('BEGIN');
            try {
              await fn();
              await client.query('COMMIT');
            } catch (err) {
              await client.query('ROLLBACK');
              throw err;
            }
          },
        },
        set,
      );
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext('agent-utility:migrate'), hashtext($1))", [schema]).catch(() => {
        broken = true;
      });
    }
  } finally {
    client.release(broken);
  }
}

/** Applies the set's pending migrations on whichever database `db` is. */
export function migrate(db: SqliteDb | { pool: pg.Pool; schema: string }, set: MigrationSet): Promise<void> {
  return db instanceof SqliteDb ? migrateSqlite(db, set) : migratePostgres(db, set);
}
