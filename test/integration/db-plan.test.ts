// Transactions written once as plans (src/db/plan.ts), on both dialects: the statements commit together,
// a throw undoes them all, Rollback(value) undoes them and hands the value out, and on SQLite two
// connections of one process (two stores on one file) can run plans at the same time without waiting on
// each other's lock (a plan never awaits while it holds the write lock).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { one, run, runPlan, runReads, type PlanDb } from '../../src/db/plan.js';
import { PostgresDb } from '../../src/db/postgres.js';
import { Rollback } from '../../src/db/sql.js';
import { SqliteDb } from '../../src/db/sqlite.js';
import { dropTestSchema, newTestSchemaName, TEST_DATABASE_URL } from '../support/postgres.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** Two connections to one fresh database, with a counter table. */
const dialects: { name: string; open: () => Promise<[PlanDb, PlanDb]> }[] = [
  {
    name: 'sqlite',
    open: async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-plan-'));
      const [a, b] = [new SqliteDb(path.join(dir, 'plan.db')), new SqliteDb(path.join(dir, 'plan.db'))];
      cleanups.push(async () => {
        a.close();
        b.close();
        fs.rmSync(dir, { recursive: true, force: true });
      });
      return [a, b];
    },
  },
  {
    name: 'postgres',
    open: async () => {
      const schema = newTestSchemaName();
      const [a, b] = [0, 1].map(() => new PostgresDb({ connectionString: TEST_DATABASE_URL, schema, poolSize: 4 })) as [PostgresDb, PostgresDb];
      await a.run(`CREATE SCHEMA ${schema}`);
      cleanups.push(async () => {
        await a.close();
        await b.close();
        await dropTestSchema(schema);
      });
      return [a, b];
    },
  },
];

describe.each(dialects)('plans on $name', ({ open }) => {
  it('commits together, undoes everything on a throw, and hands a Rollback value out with nothing written', async () => {
    const [db] = await open();
    await db.run('CREATE TABLE counters (name text PRIMARY KEY, n integer NOT NULL)');
    const count = () =>
      runReads(db, function* () {
        return Number((yield* one<{ n: number }>('SELECT COALESCE(SUM(n), 0) AS n FROM counters'))?.n);
      });

    expect(
      await runPlan(db, function* () {
        yield* run('INSERT INTO counters (name, n) VALUES ($1, $2)', ['a', 1]);
        return yield* run("UPDATE counters SET n = n + $1 WHERE name = 'a'", [2]);
      }),
    ).toBe(1);
    expect(await count()).toBe(3);

    await expect(
      runPlan(db, function* () {
        yield* run('INSERT INTO counters (name, n) VALUES ($1, $2)', ['b', 10]);
        yield* run('INSERT INTO counters (name, n) VALUES ($1, $2)', ['a', 10]); // primary key taken
      }),
    ).rejects.toThrow();
    const refused = await runPlan(db, function* () {
      yield* run('INSERT INTO counters (name, n) VALUES ($1, $2)', ['c', 100]);
      throw new Rollback('refused');
    });
    expect(refused).toBe('refused');
    expect(await count()).toBe(3);
  });

  it('runs plans from two connections at once: every increment counted, none lost', async () => {
    const [a, b] = await open();
    await a.run('CREATE TABLE hits (name text PRIMARY KEY, n integer NOT NULL)');
    await a.run("INSERT INTO hits (name, n) VALUES ('x', 0)");
    // Read-then-write: correct only if each plan is one transaction holding its row (or the database).
    const bump = (db: PlanDb) =>
      runPlan(db, function* (d) {
        const row = yield* one<{ n: number }>(`SELECT n FROM hits WHERE name = 'x'${d.name === 'postgres' ? ' FOR UPDATE' : ''}`);
        yield* run("UPDATE hits SET n = $1 WHERE name = 'x'", [Number(row?.n) + 1]);
      });
    await Promise.all(Array.from({ length: 20 }, (_, i) => bump(i % 2 ? a : b)));
    expect(Number((await b.one<{ n: number }>("SELECT n FROM hits WHERE name = 'x'"))?.n)).toBe(20);
  });
});
