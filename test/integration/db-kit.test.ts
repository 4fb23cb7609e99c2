// The database kit on both dialects: one SQL text with $n placeholders (repeated, out of order) runs on
// SQLite and PostgreSQL; the migration runner applies each migration once, records it in db_migrations,
// takes over an earlier release's ledger without re-running anything, and rolls a failing migration back.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, type MigrationSet } from '../../src/db/migrate.js';
import { PostgresDb } from '../../src/db/postgres.js';
import type { Sql } from '../../src/db/sql.js';
import { SqliteDb } from '../../src/db/sqlite.js';
import { dropTestSchema, newTestSchemaName, TEST_DATABASE_URL } from '../support/postgres.js';

const schemas: string[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const s of schemas) await dropTestSchema(s);
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

const set = (sqls: string[], legacyLedger?: string): MigrationSet => ({
  component: 'demo',
  migrations: sqls.map((sql, i) => ({ version: i + 1, name: `00${i + 1}_step.sql`, sql })),
  ...(legacyLedger ? { legacyLedger } : {}),
});

const STEPS = [
  'CREATE TABLE notes (id text PRIMARY KEY, body text NOT NULL, tags json, done boolean NOT NULL DEFAULT false, n integer NOT NULL DEFAULT 0)',
  'CREATE INDEX notes_by_body ON notes (body)',
];

type Db = (SqliteDb | PostgresDb) & Sql;
const dialects: { name: string; open: () => Db }[] = [
  {
    name: 'sqlite',
    open: () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-dbkit-'));
      dirs.push(dir);
      return new SqliteDb(path.join(dir, 'kit.db'));
    },
  },
  {
    name: 'postgres',
    open: () => {
      const schema = newTestSchemaName();
      schemas.push(schema);
      return new PostgresDb({ connectionString: TEST_DATABASE_URL, schema, poolSize: 3 });
    },
  },
];

async function close(db: Db): Promise<void> {
  if (db instanceof SqliteDb) db.close();
  else await db.close();
}

describe.each(dialects)('database kit on $name', ({ open }) => {
  it('runs one SQL text with repeated and reordered placeholders, JSON, booleans and array membership', async () => {
    const db = open();
    try {
      await migrate(db, set(STEPS));
      const d = db.dialect;
      const insert = `INSERT INTO notes (id, body, tags, done) VALUES ($2, $1, $3, $4) ON CONFLICT DO NOTHING`;
      expect(await db.run(insert, ['first', 'n1', d.json({ a: [1, 'x'] }), d.bool(true)])).toBe(1);
      expect(await db.run(insert, ['again', 'n1', d.json(null), d.bool(false)])).toBe(0);
      await db.run(insert, ['second', 'n2', d.json('text'), d.bool(false)]);
      const row = await db.one<{ id: string; tags: unknown; done: unknown; twice: string }>(
        'SELECT id, tags, done, body || $1 || body AS twice FROM notes WHERE id = $2',
        ['+', 'n1'],
        'kit_note',
      );
      expect(d.fromJson(row!.tags)).toEqual({ a: [1, 'x'] });
      expect(d.fromBool(row!.done)).toBe(true);
      expect(row!.twice).toBe('first+first');
      const some = await db.all<{ id: string }>(`SELECT id FROM notes WHERE ${d.inArray('id', '$1')} ORDER BY id`, [d.array(['n2', 'zz'])]);
      expect(some.map((r) => r.id)).toEqual(['n2']);
      const second = await db.one<{ tags: unknown; g: number }>(`SELECT tags, ${d.greatest('n', '$2')} AS g FROM notes WHERE id = $1`, ['n2', 7]);
      expect(d.fromJson(second!.tags)).toBe('text');
      expect(Number(second!.g)).toBe(7);
    } finally {
      await close(db);
    }
  });

  it('commits a transaction, rolls back a throwing one, and keeps other statements out of it', async () => {
    const db = open();
    try {
      await migrate(db, set(STEPS));
      await db.transaction(async (tx) => {
        await tx.run('INSERT INTO notes (id, body) VALUES ($1, $2)', ['t1', 'kept']);
      });
      await expect(
        db.transaction(async (tx) => {
          await tx.run('INSERT INTO notes (id, body) VALUES ($1, $2)', ['t2', 'dropped']);
          throw new Error('no');
        }),
      ).rejects.toThrow('no');
      expect((await db.all<{ id: string }>('SELECT id FROM notes ORDER BY id')).map((r) => r.id)).toEqual(['t1']);
      if (db instanceof SqliteDb) {
        // One connection per process: a statement issued while a transaction runs waits for it to end
        // (rather than running inside it), then sees its outcome.
        let outside: Promise<unknown> | undefined;
        await db.transaction(async (tx) => {
          await tx.run('INSERT INTO notes (id, body) VALUES ($1, $2)', ['t3', 'late']);
          outside = db.run('UPDATE notes SET n = n + 1 WHERE id = $1', ['t3']);
          await tx.run('UPDATE notes SET n = 10 WHERE id = $1', ['t3']);
        });
        await outside;
        expect(await db.one('SELECT n FROM notes WHERE id = $1', ['t3'])).toEqual({ n: 11 });
      }
    } finally {
      await close(db);
    }
  });

  it('applies each migration once, records it in db_migrations, and takes over an old ledger', async () => {
    const db = open();
    try {
      await migrate(db, { component: 'other', migrations: [] }); // creates the PostgreSQL schema
      // An earlier release: its own ledger says step 1 ran.
      await db.run(STEPS[0]!);
      await db.run('CREATE TABLE old_ledger (version integer PRIMARY KEY, applied_at bigint NOT NULL)');
      await db.run('INSERT INTO old_ledger (version, applied_at) VALUES (1, 1234)');
      await db.run("INSERT INTO notes (id, body) VALUES ('kept', 'written by the old release')");
      await Promise.all([migrate(db, set(STEPS, 'old_ledger')), migrate(db, set(STEPS, 'old_ledger'))]);
      await migrate(db, set(STEPS, 'old_ledger'));
      const ledger = await db.all<{ version: number; name: string; applied_at: number }>(
        "SELECT version, name, applied_at FROM db_migrations WHERE component = 'demo' ORDER BY version",
      );
      expect(ledger.map((r) => [Number(r.version), r.name])).toEqual([
        [1, '001_step.sql'],
        [2, '002_step.sql'],
      ]);
      expect(Number(ledger[0]!.applied_at)).toBe(1234);
      expect((await db.all('SELECT id FROM notes')).length).toBe(1);
    } finally {
      await close(db);
    }
  });

  it('rolls a failing migration back and names it', async () => {
    const db = open();
    try {
      await migrate(db, set([STEPS[0]!]));
      await expect(migrate(db, set([STEPS[0]!, "INSERT INTO notes (id, body) VALUES ('x', 'y'); SELECT * FROM missing_table"]))).rejects.toThrow(
        /migration demo\/002_step.sql failed/,
      );
      expect(await db.all('SELECT id FROM notes')).toEqual([]);
      expect((await db.all("SELECT version FROM db_migrations WHERE component = 'demo'")).length).toBe(1);
    } finally {
      await close(db);
    }
  });
});

describe('migration check on PostgreSQL', () => {
  it('an up-to-date schema migrates without the lock: it completes while another session holds it', async () => {
    const schema = newTestSchemaName();
    schemas.push(schema);
    const db = new PostgresDb({ connectionString: TEST_DATABASE_URL, schema, poolSize: 2 });
    const holder = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await holder.connect();
    try {
      await migrate(db, set(STEPS));
      // A process migrating (or stuck) holds the schema's migration lock; a starter with nothing to do must not wait for it.
      await holder.query("SELECT pg_advisory_lock(hashtext('agent-utility:migrate'), hashtext($1))", [schema]);
      await migrate(db, set(STEPS));
      await holder.query("SELECT pg_advisory_unlock(hashtext('agent-utility:migrate'), hashtext($1))", [schema]);
      // Behind (a new migration): the locked path applies it.
      await migrate(db, set([...STEPS, 'ALTER TABLE notes ADD COLUMN extra text']));
      expect((await db.all("SELECT version FROM db_migrations WHERE component = 'demo'")).length).toBe(3);
    } finally {
      await holder.end();
      await db.close();
    }
  });
});
