// Schema and table names are interpolated into SQL and connection options, so only plain identifiers
// pass. Kept apart from postgres-pool.ts so SQLite code (migrate.ts) can check names without loading pg.
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertSchemaName(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) {
    throw new Error(`DATABASE_SCHEMA "${schema}" must be a lower-case identifier: letters, digits and _, starting with a letter or _.`);
  }
  return schema;
}
