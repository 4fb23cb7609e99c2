// What a database's schema is, as plain sorted data two readings can be compared by: tables, their
// columns (type, nullability, default), indexes and constraints, and the migration ledger's rows. Used to
// prove that running the migrations again changes nothing.
import type { Sql } from '../../src/db/sql.js';

export interface SchemaSnapshot {
  tables: string[];
  columns: string[];
  indexes: string[];
  constraints: string[];
  ledger: { component: string; version: number; name: string; applied_at: number }[];
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

async function sqliteSchema(db: Sql): Promise<Omit<SchemaSnapshot, 'ledger'>> {
  const objects = await db.all<{ type: string; name: string; tbl_name: string; sql: string | null }>(
    "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name",
  );
  const tables = objects.filter((o) => o.type === 'table').map((o) => o.name);
  const columns: string[] = [];
  for (const table of tables) {
    const cols = await db.all<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>(
      `SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info($1)`,
      [table],
    );
    for (const c of cols) columns.push(`${table}.${c.name} ${c.type} notnull=${c.notnull} default=${c.dflt_value} pk=${c.pk}`);
  }
  return {
    tables,
    columns: columns.sort(byText),
    // The CREATE statement is the whole definition (columns, partial WHERE, uniqueness).
    indexes: objects.filter((o) => o.type === 'index').map((o) => `${o.tbl_name}.${o.name}: ${o.sql ?? '(automatic)'}`),
    constraints: objects.filter((o) => o.type === 'table' || o.type === 'trigger' || o.type === 'view').map((o) => `${o.type} ${o.name}: ${o.sql}`),
  };
}

async function postgresSchema(db: Sql): Promise<Omit<SchemaSnapshot, 'ledger'>> {
  const tables = await db.all<{ table_name: string }>(
    'SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name',
  );
  const columns = await db.all<{ c: string }>(
    `SELECT table_name || '.' || column_name || ' ' || data_type || ' nullable=' || is_nullable || ' default=' || coalesce(column_default, '') AS c
       FROM information_schema.columns WHERE table_schema = current_schema()`,
  );
  const indexes = await db.all<{ c: string }>(
    "SELECT tablename || '.' || indexname || ': ' || indexdef AS c FROM pg_indexes WHERE schemaname = current_schema()",
  );
  const constraints = await db.all<{ c: string }>(
    `SELECT rel.relname || '.' || con.conname || ': ' || pg_get_constraintdef(con.oid) AS c
       FROM pg_constraint con JOIN pg_class rel ON rel.oid = con.conrelid
      WHERE rel.relnamespace = current_schema()::regnamespace`,
  );
  return {
    tables: tables.map((t) => t.table_name),
    columns: columns.map((r) => r.c).sort(byText),
    indexes: indexes.map((r) => r.c).sort(byText),
    constraints: constraints.map((r) => r.c).sort(byText),
  };
}

export async function schemaSnapshot(db: Sql): Promise<SchemaSnapshot> {
  const schema = db.dialect.name === 'sqlite' ? await sqliteSchema(db) : await postgresSchema(db);
  const ledger = await db.all<{ component: string; version: number; name: string; applied_at: number }>(
    'SELECT component, version, name, applied_at FROM db_migrations ORDER BY component, version',
  );
  return { ...schema, ledger: ledger.map((r) => ({ ...r, version: Number(r.version), applied_at: Number(r.applied_at) })) };
}
