// Numbered SQL migrations per dialect (migrations/<dialect>/NNN_name.sql), applied in order.
// The build copies the .sql files next to the compiled code (scripts/copy-assets.mjs).
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export function loadMigrations(dialect: 'sqlite' | 'postgres', baseUrl: URL = new URL('./migrations/', import.meta.url)): Migration[] {
  const dir = fileURLToPath(new URL(`${dialect}/`, baseUrl));
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d+_.+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: Number(f.split('_')[0]), name: f, sql: fs.readFileSync(`${dir}${f}`, 'utf8') }));
}
