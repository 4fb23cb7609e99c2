// Numbered PostgreSQL migrations of the lead service, applied in order under the migration advisory lock;
// each runs once, recorded in db_migrations under component 'leads' (leads_schema_migrations before).
import type { Migration } from '../../../db/migrate.js';
import { sql as v001 } from './001_init.js';

export const postgresMigrations: Migration[] = [{ version: 1, name: '001_init', sql: v001 }];
