// Plain SQL on a store's own connection, for reads the narrow store ports do not offer (the operator
// console's searches and charts, key purchases left pending by a crash). Placeholders are `?` here, turned
// into the kit's `$n`; PostgreSQL's search_path already points at the configured schema.
import type { Sql } from './sql.js';

export interface SqlRunner {
  dialect: 'sqlite' | 'postgres';
  all(sql: string, params: unknown[]): Promise<Record<string, unknown>[]>;
}

/** `?` placeholders as the kit's: "a ? b ? c" → "a $1 b $2 c". */
const numbered = (text: string) => text.split('?').reduce((sql, part, i) => `${sql}$${i}${part}`);

/** The connection behind a store built on the kit (the task store and the lead store expose theirs as `db`). */
export function sqlRunnerOf(store: object): SqlRunner | undefined {
  const db = (store as { db?: Partial<Sql> }).db;
  if (typeof db?.all !== 'function' || typeof db.dialect?.name !== 'string') return undefined;
  const all = db.all.bind(db);
  return { dialect: db.dialect.name, all: (text, params) => all(numbered(text), params) };
}
