// Pure parts of the PostgreSQL and artifact configuration: schema names, connection options, channel
// names and the cross-checks loadConfig makes.
import { describe, expect, it } from 'vitest';
import { type ConfigError, loadConfig } from '../../src/config.js';
import { channelName } from '../../src/db/postgres-notifier.js';
import { clientConfig } from '../../src/db/postgres-pool.js';
import { assertSchemaName } from '../../src/db/schema-name.js';
import { expiryOfFileId, fileIdExpiringAt } from '../../src/artifacts/s3-artifact-store.js';
import { isFileId } from '../../src/artifacts/artifact-store.js';

describe('PostgreSQL connection settings', () => {
  it('accepts only plain lower-case schema identifiers', () => {
    expect(assertSchemaName('public')).toBe('public');
    expect(assertSchemaName('au_cluster_2')).toBe('au_cluster_2');
    for (const bad of ['Public', 'a-b', 'x;drop schema public', '', '1abc', 'a'.repeat(64)]) expect(() => assertSchemaName(bad)).toThrow(/DATABASE_SCHEMA/);
  });

  it('keeps options from the URL and adds the search_path', () => {
    const c = clientConfig({
      connectionString: 'postgres://u@h:5432/db?sslmode=disable&options=-c%20statement_timeout%3D5000',
      schema: 'tenant_a',
      poolSize: 1,
    });
    expect(c.options).toBe('-c statement_timeout=5000 -c search_path=tenant_a');
    expect(c.connectionString).toBe('postgres://u@h:5432/db?sslmode=disable');
    expect(clientConfig({ connectionString: 'postgres://u@h/db', schema: 'public', poolSize: 1 }).options).toBe('-c search_path=public');
  });

  it('names notification channels per schema, within 63 bytes', () => {
    expect(channelName('public', 'task_available')).toBe('agent_utility_task_available_public');
    const long = channelName('s'.repeat(63), 'task_settled');
    expect(long.length).toBeLessThanOrEqual(63);
    expect(long).not.toBe(channelName('t'.repeat(63), 'task_settled'));
  });
});

describe('artifact and database configuration', () => {
  it('defaults artifacts to PostgreSQL when there is a database, to local disk otherwise', () => {
    expect(loadConfig({}).artifacts.store).toBe('local');
    const pg = loadConfig({ DATABASE_URL: 'postgres://u@h/db' });
    expect(pg.artifacts.store).toBe('postgres');
    expect(pg.database).toEqual({ schema: 'public', poolSize: 10 });
  });

  it('refuses inconsistent settings, naming each variable', () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (err) {
        return (err as ConfigError).problems;
      }
    };
    expect(problems({ ARTIFACT_STORE: 's3' }).join()).toMatch(/S3_BUCKET/);
    expect(problems({ ARTIFACT_STORE: 'postgres' }).join()).toMatch(/DATABASE_URL/);
    expect(problems({ ARTIFACT_STORE: 's3', S3_BUCKET: 'bkt', S3_ACCESS_KEY_ID: 'k' }).join()).toMatch(/S3_SECRET_ACCESS_KEY/);
    expect(problems({ DATABASE_SCHEMA: 'Bad-Name' }).join()).toMatch(/DATABASE_SCHEMA/);
    expect(problems({ ARTIFACT_STORE: 's3', S3_BUCKET: 'bkt' })).toEqual([]);
  });
});

describe('S3 artifact ids', () => {
  it('carry their expiry, to the second, and are valid file ids', () => {
    const at = new Date('2031-05-06T07:08:09.400Z');
    const id = fileIdExpiringAt(at);
    expect(isFileId(id)).toBe(true);
    expect(expiryOfFileId(id)!.toISOString()).toBe('2031-05-06T07:08:10.000Z');
    expect(fileIdExpiringAt(at)).not.toBe(id);
    expect(expiryOfFileId('file_0123456789abcdef')).toBeNull();
  });
});
