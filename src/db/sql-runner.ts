// Plain SQL on a store's own connection, for reads the narrow store ports do not offer (the operator
// console's searches and charts, key purchases left pending by a crash). Placeholders are `?` here, turned
// into the kit's `$n`; PostgreSQL's search_path already points at the configured schema.
import type { Sql } from './sql.js';

export interface SqlRunner {
  dialect: 'sqlite' | 'postgres';
  all(sql: string, params: unknown[]): Promise<Record<string, unknown>[]>;
}

function isSql(db: unknown): db is Sql {
  return typeof db === 'object' && db !== null && typeof (db as Sql).all === 'function' && typeof (db as Sql).dialect?.name === 'string';
}

/** The connection behind a store built on the kit (the task store and the lead store expose theirs as `db`). */
export function sqlRunnerOf(store: object): SqlRunner | undefined {
  const db = (store as { db?: unknown }).db;
  if (!isSql(db)) return undefined;
  return {
    dialect: db.dialect.name,
    all: (text, params) => {
      let n = 0;
      return db.all<Record<string, unknown>>(
        text.replace(/\?/g, () => `$${++n}`),
        params,
      );
    },
  };
}
