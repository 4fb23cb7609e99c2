// WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside the commit that pushes
// the WAL past 1,000 pages: that commit copies the pages into the database file and fsyncs it on the
// thread that committed, which for a server is its only JavaScript thread. Measured on this machine
// (commits of 10 task-sized rows, 200 a second): p99 13 ms and max 194 ms with it, 0.3 ms and 1.5 ms
// without. Here a worker thread with its own connection runs PASSIVE checkpoints on a timer (they never
// wait for a lock, and writers go on while one runs). Under steady writes such a checkpoint never finds
// the WAL without new frames, and SQLite starts the WAL afresh only when every frame was copied: so the
// server's connection keeps an automatic checkpoint, at 10,000 pages instead of 1,000. It then finds
// nearly every frame copied already, copies the rest and lets the WAL restart. Should the thread fail,
// the connection gets SQLite's default back.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/** SQLite's default: a commit checkpoints once the WAL holds this many pages. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
/** The server connection's own checkpoint beside the thread: bounds the WAL (~40 MB of 4 KB pages). */
export const BACKSTOP_AUTOCHECKPOINT_PAGES = 10_000;

// CommonJS, run with `eval`: no file of its own to find next to the built or the TypeScript source.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('busy_timeout = 0');
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Another connection's checkpoint, a held lock, a full disk: the next tick tries again (the
    // server's own statements report a lasting fault).
  }
};
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

export class WalCheckpointer {
  private readonly worker: Worker;
  private stopped = false;

  /** Starts checkpointing `file` every `everyMs` and moves `connection`'s own checkpoints to the backstop. */
  constructor(connection: Database.Database, file: string, everyMs = 200) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file, everyMs } });
    this.worker.unref();
    const restore = () => {
      if (!this.stopped && connection.open) connection.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
    };
    this.worker.on('error', restore);
    this.worker.on('exit', restore);
    connection.pragma(`wal_autocheckpoint = ${BACKSTOP_AUTOCHECKPOINT_PAGES}`);
  }

  /** A last checkpoint, then the thread ends (nothing waits for it). */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.worker.postMessage('stop');
  }
}
