// One migration runner for every store and both dialects. Each component (the task store, the lead
// service…) keeps numbered files per dialect, <dir>/<dialect>/NNN_name.sql, applied in order and
// recorded in one ledger table, db_migrations (component, version). They run under a lock, so many
// processes starting at once apply each migration exactly once: a PostgreSQL advisory lock per schema,
// or one SQLite BEGIN IMMEDIATE transaction around the whole run (migrate-postgres.ts holds the
// PostgreSQL side, so a SQLite process never loads pg). The ledger is read first without the lock: a
// process starting on an up-to-date database takes no lock at all. The build copies the .sql files next
// to the compiled code (scripts/copy-assets.mjs).
//
// Earlier releases kept a ledger per component (schema_migrations, lead_schema_migrations,
// leads_schema_migrations). A component names its old ledger and every run copies the versions found
// there into db_migrations (ignoring those already copied) whenever the ledger is behind, so an upgraded deployment re-runs nothing.
// The old ledger is read, never written or dropped: a process of the previous release restarting during
// a rolling upgrade still finds its migrations applied (it knows none of the newer ones).
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DialectName } from './dialect.js';
import { assertSchemaName } from './schema-name.js';
import type { Sql } from './sql.js';
import type pg from 'pg';
// Type only: a PostgreSQL process must not load better-sqlite3 (open-store.ts loads one adapter).
import type { SqliteDb } from './sqlite.js';

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

const LEDGER = 'db_migrations';

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

async function appliedVersions(c: Sql, set: MigrationSet): Promise<Set<number>> {
  return new Set((await c.all<{ version: number }>(`SELECT version FROM ${LEDGER} WHERE component = $1`, [set.component])).map((r) => Number(r.version)));
}

/** Runs under the migration lock: `atomically` is a transaction of its own on PostgreSQL (SQLite is already in one). */
export async function applyPending(c: Sql, set: MigrationSet, script: (sql: string) => Promise<unknown>, atomically = (fn: () => Promise<void>) => fn()) {
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
  const applied = await appliedVersions(c, set);
  for (const m of set.migrations.filter((m) => !applied.has(m.version))) {
    await atomically(async () => {
      await script(m.sql).catch((err: Error) => {
        throw new Error(`migration ${set.component}/${m.name} failed: ${err.message}`, { cause: err });
      });
      await c.run(RECORD, [set.component, m.version, m.name, Date.now()]);
    });
  }
}

/**
 * True when the ledger already lists every migration of the set: read without the lock, so a process
 * starting against an up-to-date database (every start but the first after an upgrade) costs one query.
 * Any error (no ledger yet, no schema yet) means "not known to be up to date": the locked path decides.
 */
export async function upToDate(c: Sql, set: MigrationSet): Promise<boolean> {
  try {
    const applied = await appliedVersions(c, set);
    return set.migrations.every((m) => applied.has(m.version));
  } catch {
    return false;
  }
}

/**
 * Applies the set's pending migrations on whichever database `db` is: on SQLite all in one BEGIN IMMEDIATE
 * transaction, on PostgreSQL through migrate-postgres.ts (pg is loaded only then).
 */
export async function migrate(db: SqliteDb | { pool: pg.Pool; schema: string }, set: MigrationSet): Promise<void> {
  if ('pool' in db) return (await import('./migrate-postgres.js')).migratePostgres(db, set);
  if (await upToDate(db, set)) return;
  return db.transaction((tx) => applyPending(tx, set, async (sql) => db.raw.exec(sql)));
}
