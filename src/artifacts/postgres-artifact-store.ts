// Artifacts in PostgreSQL (table `artifacts`, migration 002): the shared store for small clusters, so a
// screenshot made by a worker on one machine is served by /files on any API node. Bytes and metadata are
// one row, written in one statement, so a reader never sees half an artifact. For large volumes use the
// S3 adapter: PostgreSQL holds the bytes in its WAL and backups too.
import type pg from 'pg';
import { newId } from '../ids.js';
import { migratePostgres } from '../db/migrate-postgres.js';
import { createPool } from '../db/postgres-pool.js';
import { taskMigrations } from '../db/tasks/migrations.js';
import { ARTIFACT_TTL_MS, chosenFileId, isFileId, type ArtifactMeta, type ArtifactStore, type PutOptions, type StoredArtifact } from './artifact-store.js';

export interface PostgresArtifactStoreOptions {
  connectionString: string;
  schema: string;
  /** Connections for artifact reads and writes (separate from the task store's pool). */
  poolSize?: number;
  onError?: (err: Error) => void;
}

interface ArtifactRecord {
  file_id: string;
  content_type: string;
  bytes: number;
  body: Buffer;
  created_at: number;
  expires_at: number;
}

export class PostgresArtifactStore implements ArtifactStore {
  readonly kind = 'postgres';
  private readonly pool: pg.Pool;
  private ready: Promise<void> | undefined;

  constructor(private readonly o: PostgresArtifactStoreOptions) {
    this.pool = createPool({
      connectionString: o.connectionString,
      schema: o.schema,
      poolSize: o.poolSize ?? 4,
      applicationName: 'agent-utility:artifacts',
      ...(o.onError ? { onError: o.onError } : {}),
    });
  }

  /** The table comes with the store's migrations; applying them here too makes the store usable on its own. */
  private migrated(): Promise<void> {
    this.ready ??= migratePostgres({ pool: this.pool, schema: this.o.schema }, taskMigrations('postgres')).catch((err: unknown) => {
      this.ready = undefined;
      throw err;
    });
    return this.ready;
  }

  async put(bytes: Uint8Array, contentType: string, opts: PutOptions = {}): Promise<ArtifactMeta> {
    await this.migrated();
    const fileId = chosenFileId(opts, () => newId('file', 12));
    const createdAt = new Date();
    const expiresAt = new Date(createdAt.getTime() + (opts.ttlMs ?? ARTIFACT_TTL_MS));
    await this.pool.query(
      'INSERT INTO artifacts (file_id, content_type, bytes, body, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6) ' +
        'ON CONFLICT (file_id) DO UPDATE SET content_type = EXCLUDED.content_type, bytes = EXCLUDED.bytes, body = EXCLUDED.body, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at',
      [fileId, contentType, bytes.byteLength, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), createdAt.getTime(), expiresAt.getTime()],
    );
    return { fileId, contentType, bytes: bytes.byteLength, createdAt, expiresAt };
  }

  async get(fileId: string): Promise<StoredArtifact | null> {
    if (!isFileId(fileId)) return null;
    await this.migrated();
    const r = await this.pool.query<ArtifactRecord>('SELECT * FROM artifacts WHERE file_id = $1', [fileId]);
    const row = r.rows[0];
    if (!row) return null;
    return {
      meta: { fileId, contentType: row.content_type, bytes: row.bytes, createdAt: new Date(row.created_at), expiresAt: new Date(row.expires_at) },
      body: row.body,
    };
  }

  async delete(fileId: string): Promise<boolean> {
    if (!isFileId(fileId)) return false;
    await this.migrated();
    return ((await this.pool.query('DELETE FROM artifacts WHERE file_id = $1', [fileId])).rowCount ?? 0) > 0;
  }

  async sweepExpired(now: Date = new Date()): Promise<number> {
    await this.migrated();
    return (await this.pool.query('DELETE FROM artifacts WHERE expires_at <= $1', [now.getTime()])).rowCount ?? 0;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
