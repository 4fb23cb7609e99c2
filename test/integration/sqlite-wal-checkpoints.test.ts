// WAL checkpoints in the background (src/db/wal-checkpointer.ts): the server's connection checkpoints
// only past the backstop, and below it the WAL's pages still reach the database file, copied by the
// checkpoint thread.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteDb } from '../../src/db/sqlite.js';
import { BACKSTOP_AUTOCHECKPOINT_PAGES } from '../../src/db/wal-checkpointer.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function fresh(checkpoints: 'inline' | 'background'): { db: SqliteDb; file: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-wal-'));
  dirs.push(dir);
  const file = path.join(dir, 'x.db');
  const db = new SqliteDb(file, { checkpoints });
  db.raw.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)');
  return { db, file };
}

/** Rows enough for ~6 MB of WAL (past 1,000 pages of 4 KB), in many small commits (as a server writes). */
async function write(db: SqliteDb): Promise<void> {
  const insert = db.raw.prepare('INSERT INTO t (body) VALUES (?)');
  for (let i = 0; i < 600; i++) await db.immediate(() => insert.run('x'.repeat(10_000)));
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

describe('WAL checkpoints', () => {
  it('in the background: the thread copies the WAL into the file before the connection would', async () => {
    const { db, file } = fresh('background');
    // 6 MB of WAL stays under the connection's own mark (40 MB): any checkpoint is the thread's.
    expect(db.raw.pragma('wal_autocheckpoint', { simple: true })).toBe(BACKSTOP_AUTOCHECKPOINT_PAGES);
    const before = fs.statSync(file).size;
    await write(db);
    // Only a checkpoint grows the database file in WAL mode: the rows' pages reach it.
    expect(await until(() => fs.statSync(file).size > before + 1_000_000)).toBe(true);
    expect(db.raw.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 600 });
    db.close();
  });

  it('inline (the default): the connection keeps SQLite automatic checkpoints', async () => {
    const { db, file } = fresh('inline');
    expect(db.raw.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    const before = fs.statSync(file).size;
    await write(db);
    // 6 MB of WAL passes the 1,000-page mark: a commit checkpointed.
    expect(fs.statSync(file).size).toBeGreaterThan(before + 1_000_000);
    db.close();
  });
});
