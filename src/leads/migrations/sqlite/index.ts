// Numbered SQLite migrations, applied in order; each runs once, recorded in lead_schema_migrations.
import { sql as v001 } from './001_init.js';

export const sqliteMigrations: readonly { version: number; name: string; sql: string }[] = [
  { version: 1, name: '001_init', sql: v001 },
];
