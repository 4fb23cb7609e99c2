// Plain SQL on a store adapter's own connection, for reads the narrow store ports do not offer (the
// operator console's searches and charts, key purchases left pending by a crash). Placeholders are `?`
// in both dialects; PostgreSQL's search_path already points at the configured schema.
import type Database from 'better-sqlite3';
import type pg from 'pg';

export interface SqlRunner {
  dialect: 'sqlite' | 'postgres';
  /** `?` placeholders in both dialects (numbered for PostgreSQL here). */
  all(sql: string, params: unknown[]): Promise<Record<string, unknown>[]>;
}

/**
 * The connection behind a store adapter. The adapters keep it private (the port is deliberately narrow),
 * so this reaches it by name; once the ports offer these reads, this goes away.
 */
export function sqlRunnerOf(store: object): SqlRunner | undefined {
  const handle = store as { db?: Database.Database; pool?: pg.Pool };
  if (handle.db && typeof handle.db.prepare === 'function') {
    const db = handle.db;
    return { dialect: 'sqlite', all: async (sql, params) => db.prepare(sql).all(...params) as Record<string, unknown>[] };
  }
  if (handle.pool && typeof handle.pool.query === 'function') {
    const pool = handle.pool;
    return {
      dialect: 'postgres',
      all: async (sql, params) => {
        let n = 0;
        return (await pool.query(sql.replace(/\?/g, () => `$${++n}`), params)).rows as Record<string, unknown>[];
      },
    };
  }
  return undefined;
}

