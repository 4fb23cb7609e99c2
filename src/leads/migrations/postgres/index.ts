// Numbered PostgreSQL migrations of the lead service, applied in order under the migration advisory lock;
// each runs once, recorded in leads_schema_migrations (the task store keeps its own schema_migrations).
import type { Migration } from '../../../store/migrations.js';
import { sql as v001 } from './001_init.js';

export const postgresMigrations: Migration[] = [{ version: 1, name: '001_init', sql: v001 }];
