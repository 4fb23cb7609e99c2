// The LISTEN/NOTIFY notifier on a real PostgreSQL: items published together are joined into payloads
// under NOTIFY's 8,000-byte limit, so a burst far larger than one payload still reaches a listener whole,
// each item once, on its own channel only.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { channelName, PostgresNotifier } from '../../src/db/postgres-notifier.js';
import { newTestSchemaName, TEST_DATABASE_URL } from '../support/postgres.js';

const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 2 });
const notifiers: PostgresNotifier[] = [];
afterAll(async () => {
  for (const n of notifiers) await n.close();
  await pool.end();
});

function notifier(): PostgresNotifier {
  const n = new PostgresNotifier({ connectionString: TEST_DATABASE_URL }, (sql, params) => pool.query(sql, params));
  notifiers.push(n);
  return n;
}

describe('PostgresNotifier', () => {
  it('delivers a burst larger than one payload whole, each item once, on its own channel', async () => {
    const schema = newTestSchemaName();
    const [busy, quiet] = [channelName(schema, 'task_settled'), channelName(schema, 'task_available')];
    const listener = notifier();
    const heard: string[] = [];
    const heardQuiet: string[] = [];
    let connected!: () => void;
    const up = new Promise<void>((resolve) => (connected = resolve));
    listener.subscribe(quiet, (item) => (item === '' ? connected() : heardQuiet.push(item)));
    const items = Array.from({ length: 2_000 }, (_, i) => `task_${String(i).padStart(6, '0')}_${'x'.repeat(20)}`);
    const all = new Promise<void>((resolve) =>
      listener.subscribe(busy, (item) => {
        if (item !== '') heard.push(item);
        if (heard.length === items.length) resolve();
      }),
    );
    await up; // a subscriber hears '' once the LISTEN connection is up
    const sender = notifier();
    for (const item of items) sender.publish(busy, item);
    await all;
    expect(heard.sort()).toEqual(items);
    expect(heardQuiet).toEqual([]);
  });
});
