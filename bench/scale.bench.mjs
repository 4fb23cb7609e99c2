// Scale-out throughput: dns.lookup tasks (against a local Knot) drained by 1, 2 and 4 `agent-utility worker`
// processes sharing PostgreSQL, against the baseline of a single worker process on SQLite, in one run.
// Tasks are queued before they are due, so process start-up is not measured: throughput is tasks divided
// by the time from the first task's start to the last task's finish, both read from the database.
// Loopback only; the built CLI (dist/) is what runs.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PostgresStore } from '../dist/src/db/tasks/postgres-store.js';
import { SqliteStore } from '../dist/src/db/tasks/sqlite-store.js';
import { startKnot } from '../dist/test/support/knot.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist/src/cli.js');
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const TASKS = 3000;
const RUN_TIMEOUT_MS = 30_000;
const LEAD_MS = 1500; // tasks become due this long after they are queued

function startWorker(env) {
  const child = spawn(process.execPath, [CLI, 'worker'], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const ready = new Promise((resolve, reject) => {
    let out = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      out += chunk;
      if (out.includes('worker started')) resolve();
      if (out.length > 100_000) out = out.slice(-10_000);
    });
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before starting:\n${out.slice(-2000)}`)));
  });
  return { child, ready };
}

const TICKS_PER_SECOND = 100; // Linux USER_HZ

/** CPU seconds (user + system) a process has used, from /proc; 0 when it is gone. */
function cpuOf(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** CPU seconds used by every PostgreSQL server process on this machine (backends, WAL writer, …). */
function postgresCpu() {
  let total = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') total += cpuOf(pid);
    } catch {
      // exited meanwhile
    }
  }
  return total;
}

async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

/** Queues TASKS dns.lookup tasks due at `dueAt`, in parallel batches. */
async function queue(store, dueAt, tag) {
  const ids = Array.from({ length: TASKS }, (_, i) => `task_bench${tag}${i.toString().padStart(6, '0')}`);
  for (let i = 0; i < ids.length; i += 50) {
    await Promise.all(
      ids.slice(i, i + 50).map((id, j) =>
        store.createTask({
          id,
          tool: 'dns.lookup',
          input: { domain: `n${i + j}.bench.test`, record_type: 'A' },
          payer: { kind: 'local', id: 'bench' },
          priceMicros: 0,
          maxAttempts: 3,
          now: dueAt,
        }),
      ),
    );
  }
}

/** Waits until every task is finished (or the run times out); returns throughput from DB timestamps. */
async function drain(store) {
  const deadline = Date.now() + LEAD_MS + RUN_TIMEOUT_MS;
  for (;;) {
    const stats = await store.stats();
    const open = stats.queueDepth + stats.running;
    if (open === 0 || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function measure({ label, workers, env, openStore, spanOf }) {
  const store = await openStore();
  const procs = Array.from({ length: workers }, () => startWorker(env));
  try {
    await Promise.all(procs.map((p) => p.ready));
    const dueAt = Date.now() + LEAD_MS;
    await queue(store, dueAt, label.replace(/\W/g, ''));
    await new Promise((r) => setTimeout(r, Math.max(0, dueAt - Date.now())));
    const cpu0 = { workers: procs.reduce((n, p) => n + cpuOf(p.child.pid), 0), db: postgresCpu() };
    await drain(store);
    const cpu1 = { workers: procs.reduce((n, p) => n + cpuOf(p.child.pid), 0), db: postgresCpu() };
    const { done, first, last } = await spanOf(store);
    const seconds = Math.max(0.001, (last - first) / 1000);
    return {
      label,
      workers,
      done,
      seconds,
      perSecond: done / seconds,
      workerCpuMs: (1000 * (cpu1.workers - cpu0.workers)) / Math.max(1, done),
      dbCpuMs: (1000 * (cpu1.db - cpu0.db)) / Math.max(1, done),
    };
  } finally {
    await Promise.all(procs.map((p) => stop(p.child)));
    await store.close();
  }
}

export default {
  name: 'scale',
  title: 'Scale-out: dns.lookup throughput with 1, 2 and 4 worker processes on PostgreSQL vs one SQLite process',
  async run() {
    const knot = await startKnot([{ origin: 'bench.test', records: ['* 300 IN A 127.0.0.1'] }]);
    const base = { DNS_SERVERS: knot.server, LOG_LEVEL: 'info', LEADS_PORT: '0', SECRET: 'b'.repeat(40), POLL_INTERVAL_MS: '100', WORKER_CONCURRENCY: '16' };
    const rows = [];
    const cleanups = [];
    try {
      // Baseline: one process on SQLite (what a single machine runs without DATABASE_URL).
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-bench-scale-'));
      cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
      const sqliteFile = path.join(dataDir, 'agent-utility.db');
      rows.push(
        await measure({
          label: 'SQLite, 1 process',
          workers: 1,
          env: { ...base, DATA_DIR: dataDir },
          openStore: async () => {
            const s = new SqliteStore(sqliteFile);
            await s.migrate();
            return s;
          },
          spanOf: async () => {
            const Database = (await import('better-sqlite3')).default;
            const db = new Database(sqliteFile, { readonly: true });
            const r = db.prepare("SELECT COUNT(*) AS done, MIN(started_at) AS first, MAX(finished_at) AS last FROM tasks WHERE status = 'complete'").get();
            db.close();
            return r;
          },
        }),
      );
      for (const workers of [1, 2, 4]) {
        const schema = `au_bench_${Date.now()}_${workers}`;
        const env = { ...base, DATA_DIR: dataDir, DATABASE_URL, DATABASE_SCHEMA: schema };
        cleanups.push(async () => {
          const c = new pg.Client({ connectionString: DATABASE_URL });
          await c.connect();
          await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
          await c.end();
        });
        rows.push(
          await measure({
            label: `PostgreSQL, ${workers} worker process${workers > 1 ? 'es' : ''}`,
            workers,
            env,
            openStore: async () => {
              const s = new PostgresStore({ connectionString: DATABASE_URL, schema, poolSize: 10 });
              await s.migrate();
              return s;
            },
            spanOf: async () => {
              const c = new pg.Client({ connectionString: DATABASE_URL, options: `-c search_path=${schema}` });
              await c.connect();
              const r = (
                await c.query(
                  "SELECT COUNT(*)::int AS done, MIN(started_at)::float8 AS first, MAX(finished_at)::float8 AS last FROM tasks WHERE status = 'complete'",
                )
              ).rows[0];
              await c.end();
              return r;
            },
          }),
        );
      }
    } finally {
      for (const c of cleanups.reverse()) await Promise.resolve(c()).catch(() => undefined);
      await knot.stop();
    }
    const baseline = rows[0].perSecond;
    const pg1 = rows[1].perSecond;
    const table = [
      '| setup | tasks done | seconds | tasks/s | vs SQLite | vs 1 PG worker | worker CPU ms/task | PostgreSQL CPU ms/task |',
      '|---|---:|---:|---:|---:|---:|---:|---:|',
      ...rows.map(
        (r, i) =>
          `| ${r.label} | ${r.done}/${TASKS} | ${r.seconds.toFixed(2)} | **${r.perSecond.toFixed(0)}** | ${(r.perSecond / baseline).toFixed(2)}× | ${i === 0 ? '–' : `${(r.perSecond / pg1).toFixed(2)}×`} | ${r.workerCpuMs.toFixed(2)} | ${i === 0 ? '–' : r.dbCpuMs.toFixed(2)} |`,
      ),
    ].join('\n');
    // The model for N machines, from the CPU measured above (a projection, not a measurement): worker
    // machines add worker CPU; the database's CPU and connection count do not grow with them.
    const pgRows = rows.slice(1);
    const workerMs = pgRows.reduce((n, r) => n + r.workerCpuMs, 0) / pgRows.length;
    const dbMs = pgRows.reduce((n, r) => n + r.dbCpuMs, 0) / pgRows.length;
    const WORKER_CORES = 2;
    const DB_CORES = 8;
    const dbCeiling = (DB_CORES * 1000) / dbMs;
    const model = [
      `| worker machines (${WORKER_CORES} cores each) | worker CPU allows | database (${DB_CORES} cores) allows | expected tasks/s | bottleneck | connections (pool 10 + 1, one process per core) |`,
      '|---:|---:|---:|---:|---|---:|',
      ...[1, 2, 4, 8, 16, 32].map((n) => {
        const workerCeiling = (n * WORKER_CORES * 1000) / workerMs;
        const expected = Math.min(workerCeiling, dbCeiling);
        return `| ${n} | ${workerCeiling.toFixed(0)} | ${dbCeiling.toFixed(0)} | ${expected.toFixed(0)} | ${workerCeiling < dbCeiling ? 'worker CPU' : 'database CPU / WAL'} | ${n * WORKER_CORES * 11} |`;
      }),
    ].join('\n');
    return `${table}

${TASKS} \`dns.lookup\` tasks (type A, a local Knot answering), queued before they are due, drained by \`agent-utility worker\`
processes (16 tasks at a time each). Throughput is tasks / (last finish − first start) from the database; CPU
is read from /proc over the same window (PostgreSQL: every server process on the machine, so other load on
the database counts too). The machine has ${os.cpus().length} cores shared by PostgreSQL, Knot, the benchmark
and every worker, so more worker processes add contention, not CPU: on one machine PostgreSQL buys
sharing, not speed. The CPU columns are what carries over to N machines.

**Model for N machines** (a projection from the CPU per task measured above, ${workerMs.toFixed(2)} ms in workers and
${dbMs.toFixed(2)} ms in PostgreSQL, not a measurement): fast tools scale with worker machines until the database's
CPU and WAL flushes (three commits per task) are the limit; connections grow with every process and pass
PostgreSQL's default \`max_connections = 100\` at about 9 processes (lower \`DATABASE_POOL_SIZE\` or use a pooler);
one API key's charges serialise on its row lock (about one per commit). Browser tools cost ~400 ms of CPU per
page (see the browser benchmark: ~5 screenshots/s on 2 cores), so their worker pools are bounded by Chromium CPU
long before anything here. Details in docs/scaling.md.

${model}`;
  },
};
