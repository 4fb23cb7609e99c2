// Queue drain on PostgreSQL against graphile-worker, in one run on one database: 10,000
// graphile-worker no-op jobs against 10,000 tasks of our cheapest real in-process tool (ip.geolocate,
// a lookup in data shipped with the service), with 1 and 2 worker processes of 16 slots each, on a
// table never analyzed and on one analyzed while empty (the planner-statistics trap). Each system gets
// a schema of its own. Time runs from spawning the workers to the last task settled, so start-up counts.
// PostgreSQL CPU is read from /proc for exactly the server backends serving the workers' sockets, the
// workers' own CPU from /proc for their processes; WAL is the pg_current_wal_lsn() difference over the
// drain (it includes anything else writing at the time). The run uses a database of its own, so the
// transactions counted (pg_stat_database, less the bench's own polling) are the workers', and row
// writes are the inserted, updated and deleted rows of the system's schema (pg_stat_user_tables).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { cpuSecondsOf } from './lib/proc-cpu.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist/src/cli.js');
const GRAPHILE = path.join(ROOT, 'node_modules/graphile-worker/dist/cli.js');
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BENCH_DB = `bench_drain_${process.pid}`;
const DATABASE_URL = (() => {
  const u = new URL(SERVER_URL);
  u.pathname = `/${BENCH_DB}`;
  return u.toString();
})();
const TASKS = Number(process.env.BENCH_DRAIN_TASKS ?? 10_000);
const SLOTS = 16;
// For quicker iterations: BENCH_DRAIN_WORKERS=2 and/or BENCH_DRAIN_TABLES=fresh|analyzed run part of the grid.
const WORKER_COUNTS = (process.env.BENCH_DRAIN_WORKERS ?? '1,2').split(',').map(Number);
const TABLES = (process.env.BENCH_DRAIN_TABLES ?? 'fresh,analyzed').split(',').map((t) => t === 'analyzed');
const TIMEOUT_MS = 120_000;
const cpuOf = cpuSecondsOf;

/** Local TCP ports of a process's sockets (to find the PostgreSQL backends serving exactly it). */
function localPorts(pid) {
  const inodes = new Set();
  try {
    for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
      const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]);
    }
  } catch {
    return [];
  }
  const ports = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of fs.readFileSync(file, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length > 9 && inodes.has(cols[9])) ports.push(parseInt(cols[1].split(':')[1], 16));
    }
  }
  return ports;
}

/** Samples the CPU of the backends serving `pids`; keeps each backend's last reading after it exits. */
function backendCpu(admin) {
  const last = new Map();
  return {
    async sample(pids) {
      const ports = pids.flatMap(localPorts);
      if (ports.length > 0) {
        const r = await admin.query('SELECT pid FROM pg_stat_activity WHERE client_port = ANY($1::int[])', [ports]);
        for (const { pid } of r.rows) last.set(pid, last.get(pid) ?? 0);
      }
      for (const pid of last.keys()) {
        const cpu = cpuOf(pid);
        if (cpu !== undefined) last.set(pid, cpu);
      }
    },
    total: () => [...last.values()].reduce((a, b) => a + b, 0),
  };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const walLsn = async (admin) => (await admin.query('SELECT pg_current_wal_lsn() AS l')).rows[0].l;
const walBytes = async (admin, from) => Number((await admin.query('SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), $1) AS d', [from])).rows[0].d);

/** Transactions ended in this database, and rows written in `schema` (stats flushed by exited backends). */
async function counters(admin, schema) {
  // The admin connection's own counts go out at its next idle moment: force them, then read.
  await admin.query('SELECT pg_stat_force_next_flush()');
  await admin.query('SELECT 1');
  const x = await admin.query('SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()');
  const t = await admin.query(
    `SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) AS writes, coalesce(sum(n_tup_upd), 0) AS upd, coalesce(sum(n_tup_hot_upd), 0) AS hot
     FROM pg_stat_user_tables WHERE schemaname = $1`,
    [schema],
  );
  return { xacts: Number(x.rows[0].n), writes: Number(t.rows[0].writes), updates: Number(t.rows[0].upd), hot: Number(t.rows[0].hot) };
}

async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

/** Runs one drain: `spawnWorker()` n times, `remaining()` until 0; returns the figures. */
async function drain(admin, { schema, workers, spawnWorker, remaining, firstStart }) {
  const cpu = backendCpu(admin);
  const before = await counters(admin, schema);
  const lsn = await walLsn(admin);
  let ownXacts = 1; // the LSN read above
  const started = Date.now();
  const children = Array.from({ length: workers }, () => spawnWorker());
  const workerCpu = new Map();
  const sampleWorkers = () => {
    for (const c of children) {
      const s = cpuOf(c.pid);
      if (s !== undefined) workerCpu.set(c.pid, s);
    }
  };
  let ms;
  let wal;
  try {
    for (;;) {
      sampleWorkers();
      await cpu.sample(children.map((c) => c.pid));
      ownXacts += 2;
      if ((await remaining()) === 0) break;
      if (Date.now() - started > TIMEOUT_MS) throw new Error(`drain did not finish in ${TIMEOUT_MS} ms`);
      await sleep(25);
    }
    ms = Date.now() - started;
    sampleWorkers();
    await cpu.sample(children.map((c) => c.pid));
    wal = await walBytes(admin, lsn);
    ownXacts += 2;
  } finally {
    await Promise.all(children.map(stop));
  }
  const first = await firstStart();
  // Exited backends have flushed their counters; what the workers did on shutdown is counted too.
  const after = await counters(admin, schema);
  ownXacts += 3; // the first counters() after its reads, and the firstStart() query
  const sum = (m) => [...m.values()].reduce((a, b) => a + b, 0);
  return {
    ms,
    rate: TASKS / (ms / 1000),
    workerCpuMsPerTask: (sum(workerCpu) * 1000) / TASKS,
    cpuMsPerTask: (cpu.total() * 1000) / TASKS,
    walPerTask: wal / TASKS,
    xactsPerTask: (after.xacts - before.xacts - ownXacts) / TASKS,
    writesPerTask: (after.writes - before.writes) / TASKS,
    hotShare: after.updates > before.updates ? (after.hot - before.hot) / (after.updates - before.updates) : 0,
    firstMs: first === null ? null : first - started,
  };
}

async function ours(admin, workers, analyzeEmpty) {
  const schema = `bench_drain_au_${process.pid}`;
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  const env = {
    ...process.env,
    DATABASE_URL,
    DATABASE_SCHEMA: schema,
    WORKER_CONCURRENCY: String(SLOTS),
    DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'au-drain-')),
    LOG_LEVEL: 'warn',
  };
  // Migrate once up front (as a deployed cluster would be), then queue.
  const { PostgresStore } = await import('../dist/src/db/tasks/postgres-store.js');
  const store = new PostgresStore({ connectionString: DATABASE_URL, schema, poolSize: 2 });
  await store.migrate();
  await store.close();
  if (analyzeEmpty) await admin.query(`ANALYZE ${schema}.tasks`);
  const now = Date.now();
  await admin.query(
    `INSERT INTO ${schema}.tasks (id, tool, input, status, payer_kind, max_attempts, run_after, created_at)
     SELECT 'task_drain' || lpad(i::text, 6, '0'), 'ip.geolocate', '{"ip":"8.8.8.8"}', 'pending', 'none', 3, $2::bigint + i, $2::bigint + i
     FROM generate_series(1, $1) i`,
    [TASKS, now - TASKS - 1],
  );
  try {
    const r = await drain(admin, {
      schema,
      workers,
      spawnWorker: () => spawn(process.execPath, [CLI, 'worker'], { env, stdio: 'ignore' }),
      remaining: async () => Number((await admin.query(`SELECT count(*) AS n FROM ${schema}.tasks WHERE finished_at IS NULL`)).rows[0].n),
      firstStart: async () => (await admin.query(`SELECT min(started_at) AS t FROM ${schema}.tasks`)).rows[0].t,
    });
    const bad = Number((await admin.query(`SELECT count(*) AS n FROM ${schema}.tasks WHERE status <> 'complete'`)).rows[0].n);
    if (bad > 0) throw new Error(`${bad} tasks did not complete`);
    return r;
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  }
}

async function graphile(admin, workers, analyzeEmpty) {
  const schema = `bench_drain_gw_${process.pid}`;
  await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gw-drain-'));
  fs.mkdirSync(path.join(dir, 'tasks'));
  // Prints when its first job starts, so start-up to first job can be measured as for ours.
  fs.writeFileSync(
    path.join(dir, 'tasks/noop.cjs'),
    'let first = true;\nmodule.exports = async () => { if (first) { first = false; process.stdout.write(`FIRST ${Date.now()}\\n`); } };\n',
  );
  const args = [GRAPHILE, '-c', DATABASE_URL, '--schema', schema, '--jobs', String(SLOTS)];
  await new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [...args, '--schema-only'], { cwd: dir, stdio: 'ignore' });
    c.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`graphile-worker --schema-only exited ${code}`))));
  });
  if (analyzeEmpty) await admin.query(`ANALYZE ${schema}._private_jobs`);
  await admin.query(`SELECT ${schema}.add_job('noop', '{}'::json) FROM generate_series(1, $1)`, [TASKS]);
  const firsts = [];
  try {
    return await drain(admin, {
      schema,
      workers,
      spawnWorker: () => {
        const c = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] });
        c.stdout.setEncoding('utf8');
        c.stdout.on('data', (s) => {
          const m = /FIRST (\d+)/.exec(s);
          if (m) firsts.push(Number(m[1]));
        });
        return c;
      },
      remaining: async () => Number((await admin.query(`SELECT count(*) AS n FROM ${schema}._private_jobs`)).rows[0].n),
      firstStart: async () => (firsts.length > 0 ? Math.min(...firsts) : null),
    });
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export default {
  name: 'drain',
  title: `Queue drain on PostgreSQL: ${TASKS.toLocaleString('en')} tasks, ours vs graphile-worker`,
  async run() {
    // A database of its own: other clients of the server's usual database would count in its transactions.
    const server = new pg.Client({ connectionString: SERVER_URL });
    await server.connect();
    await server.query(`DROP DATABASE IF EXISTS ${BENCH_DB}`);
    await server.query(`CREATE DATABASE ${BENCH_DB}`);
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    const loadBefore = os.loadavg()[0];
    const rows = [];
    try {
      for (const workers of WORKER_COUNTS) {
        for (const analyzeEmpty of TABLES) {
          const table = analyzeEmpty ? 'analyzed while empty' : 'fresh';
          const g = await graphile(admin, workers, analyzeEmpty);
          const o = await ours(admin, workers, analyzeEmpty);
          process.stderr.write(
            `${workers} worker(s), ${table}: graphile ${g.rate.toFixed(0)}/s (${g.workerCpuMsPerTask.toFixed(2)}+${g.cpuMsPerTask.toFixed(2)} ms), ours ${o.rate.toFixed(0)}/s (${o.workerCpuMsPerTask.toFixed(2)}+${o.cpuMsPerTask.toFixed(2)} ms)\n`,
          );
          rows.push({ workers, table, g, o });
        }
      }
    } finally {
      await admin.end();
      await server.query(`DROP DATABASE IF EXISTS ${BENCH_DB}`);
      await server.end();
    }
    const f = (r) =>
      `${r.rate.toFixed(0)} | ${(r.ms / 1000).toFixed(2)} | ${r.firstMs === null ? '–' : r.firstMs} | ${r.workerCpuMsPerTask.toFixed(2)} | ${r.cpuMsPerTask.toFixed(2)} | ${Math.round(r.walPerTask)} | ${r.xactsPerTask.toFixed(2)} | ${r.writesPerTask.toFixed(2)} (${Math.round(r.hotShare * 100)}% HOT)`;
    return [
      `${SLOTS} slots per worker process; ours runs \`ip.geolocate\` (8.8.8.8), graphile-worker a no-op job. Tasks/s counts from spawning the workers to the last task settled; "first" is spawn to first task started (ms); worker CPU is the CPU of the worker processes (start-up included), PG CPU that of the server backends serving them, per task; WAL is bytes per task over the drain (includes anything else writing meanwhile); xacts is transactions (statements outside an explicit transaction) per task; row writes are rows inserted, updated or deleted in the system's schema per task, with the share of updates that were HOT (no index change). The machine is shared, so rates are noisy; CPU per task is the steadier figure.`,
      '',
      '| workers | table | graphile tasks/s | s | first ms | worker CPU ms/task | PG CPU ms/task | WAL B/task | xacts/task | row writes/task | ours tasks/s | s | first ms | worker CPU ms/task | PG CPU ms/task | WAL B/task | xacts/task | row writes/task | ours ÷ graphile |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
      ...rows.map((r) => `| ${r.workers} | ${r.table} | ${f(r.g)} | ${f(r.o)} | ${(r.o.rate / r.g.rate).toFixed(2)}× |`),
      '',
      `Machine load (1-min average) ${loadBefore.toFixed(1)} before and ${os.loadavg()[0].toFixed(1)} after, on ${os.availableParallelism()} CPUs; a worker's start-up ("first ms") is mostly CPU spent loading modules, so it stretches with the load.`,
    ].join('\n');
  },
};
