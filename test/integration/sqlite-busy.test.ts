// A server's SQLite store meets the write lock of another process (the `worker` beside `serve
// --no-workers`) without stopping its thread: the call fails fast and is tried again on a timer, so the
// event loop serves other requests meanwhile (src/db/sqlite.ts, busy: 'yield'). Waiting inside SQLite
// would block the thread in steps of 1, 2, 5, 10… ms (the soak's creation p99); here it would block for
// the whole 5 s busy timeout, since the holder below releases the lock from a timer of this thread.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/db/tasks/open-store.js';
import { SqliteStore } from '../../src/db/tasks/sqlite-store.js';
import { SqliteDb } from '../../src/db/sqlite.js';
import { EngineEvents } from '../../src/engine/events.js';
import { TaskMetrics } from '../../src/engine/metrics.js';
import type { TaskStore } from '../../src/store/port.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-sqlite-busy-'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('SQLite store under another connection’s write lock', () => {
  it('yields: the event loop runs on while the lock is held, and the creation goes through once it is free', async () => {
    const file = path.join(tempDir(), 'agent-utility.db');
    const store = new SqliteStore(file, { busy: 'yield' });
    cleanups.push(() => store.close());
    await store.migrate();
    // Another connection (standing in for the worker process) holds the write lock.
    const holder = new SqliteDb(file);
    cleanups.push(() => holder.close());
    holder.raw.prepare('BEGIN IMMEDIATE').run();

    let ticks = 0;
    const ticker = setInterval(() => ticks++, 1);
    const created = store.createTask({
      id: 'task_busy1',
      tool: 'dns.lookup',
      input: { domain: 'example.test' },
      payer: { kind: 'local', id: 'test' },
      priceMicros: 0,
      maxAttempts: 1,
      now: Date.now(),
    });
    // Released from a timer of this very thread: it can only run if the creation did not block the thread.
    setTimeout(() => holder.raw.prepare('COMMIT').run(), 20);
    const outcome = await created;
    clearInterval(ticker);

    expect(outcome.kind).toBe('created');
    expect(ticks).toBeGreaterThan(0);
    expect(store.db.busyRetries).toBeGreaterThan(0);
    expect((await store.getTask('task_busy1'))?.status).toBe('pending');
    // Operators see the waits on /metrics: a counter, not an error.
    const metrics = await new TaskMetrics(new EngineEvents()).render(store);
    expect(metrics).toContain(`agent_utility_store_lock_retries_total ${store.db.busyRetries}`);
    expect(metrics).not.toMatch(/agent_utility_store_errors_total\{reason="busy"\}/);
  });

  it('is how a server opens its store', async () => {
    const store: TaskStore = await openStore(loadConfig({ DATA_DIR: tempDir() }));
    cleanups.push(() => store.close());
    expect(store).toBeInstanceOf(SqliteStore);
    // 0: SQLite never waits on the thread; the connection retries on timers instead.
    expect((store as SqliteStore).db.raw.pragma('busy_timeout', { simple: true })).toBe(0);
  });
});
