// The migration ledger both runners share: loading a component's numbered files, reading what the ledger
// (db_migrations) says is applied, and applying the rest. migrate.ts picks the runner for a database;
// migrate-postgres.ts adds PostgreSQL's lock. A leaf, so neither runner imports the other's module.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { DialectName } from './dialect.js';
import { assertSchemaName } from './schema-name.js';
import type { Sql } from './sql.js';

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

/** The ledger's table, created when missing (a connection that attaches another database creates its own first, so the name resolves to it). */
export const CREATE_LEDGER = `CREATE TABLE IF NOT EXISTS ${LEDGER} (component text NOT NULL, version integer NOT NULL, name text NOT NULL,
    applied_at bigint NOT NULL, PRIMARY KEY (component, version))`;

/** Runs under the migration lock: `atomically` is a transaction of its own on PostgreSQL (SQLite is already in one). */
export async function applyPending(c: Sql, set: MigrationSet, script: (sql: string) => Promise<unknown>, atomically = (fn: () => Promise<void>) => fn()) {
  await script(CREATE_LEDGER);
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
