// This tree against earlier releases of itself, in one run on one machine: task creation over REST and
// the drain of what was created, on SQLite and on PostgreSQL. Each release is built at bench time from
// this repository's own history (git archive + tsc into a temp folder, sharing this checkout's
// node_modules), so "not slower than before" is measured side by side rather than against an old
// figure taken on a different day or load. Releases: BENCH_RELEASES (comma-separated git refs).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { Pool } from 'undici';
import { freePort, ROOT, stop, tempDir, waitForHttp } from './lib/processes.mjs';
import { buildRelease } from './lib/release-build.mjs';
import { cpuSecondsOf } from './lib/proc-cpu.mjs';

// 45c46c5: the release the engine-speed work started from; 1d6b9d1: the last release before the database kit.
const RELEASES = (process.env.BENCH_RELEASES ?? '45c46c5,1d6b9d1').split(',').filter(Boolean);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const TASKS = Number(process.env.BENCH_RELEASES_TASKS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_RELEASES_ROUNDS ?? 2);
const STORES = (process.env.BENCH_RELEASES_STORES ?? 'sqlite,postgres').split(',');
const SLOTS = 16;
const DRAIN_TIMEOUT_MS = 180_000;
const cpuSeconds = (pid) => cpuSecondsOf(pid) ?? 0;

function run(cliPath, args, env) {
  return execFileSync(process.execPath, [cliPath, ...args], { env: { ...process.env, LOG_LEVEL: 'silent', ...env }, encoding: 'utf8' }).trim();
}

/** Pending (unfinished) tasks, read straight from the store so every release is counted the same way. */
function pendingCounter(dialect, env) {
  if (dialect === 'sqlite') {
    const db = new Database(path.join(env.DATA_DIR, 'agent-utility.db'), { readonly: true, fileMustExist: true });
    const q = db.prepare('SELECT count(*) AS n FROM tasks WHERE finished_at IS NULL');
    return { count: async () => q.get().n, close: async () => db.close() };
  }
  const client = new pg.Client({ connectionString: DATABASE_URL });
  const ready = client.connect();
  return {
    count: async () => {
      await ready;
      return Number((await client.query(`SELECT count(*) AS n FROM ${env.DATABASE_SCHEMA}.tasks WHERE finished_at IS NULL`)).rows[0].n);
    },
    close: () => client.end(),
  };
}

/** Sends exactly TASKS creations, 32 in flight; returns how many were not answered 202. */
async function createTasks(origin, key, body) {
  const pool = new Pool(origin, { connections: 32, pipelining: 1 });
  let next = 0;
  let errors = 0;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next++ < TASKS) {
        const res = await pool.request({ method: 'POST', path: '/v1/tools/ip.geolocate/tasks', headers, body });
        await res.body.dump();
        if (res.statusCode !== 202) errors++;
      }
    }),
  );
  await pool.close();
  return errors;
}

/** One round for one build on one dialect: create TASKS tasks over REST, then drain them with one worker process. */
async function round(build, dialect, admin) {
  const port = await freePort();
  const schema = `bench_rel_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const env = {
    DATA_DIR: tempDir('au-rel-data-'),
    PORT: String(port),
    RATE_LIMIT_PER_IP: '0',
    RATE_LIMIT_PER_KEY: '0',
    LEADS_PORT: '0',
    WORKER_CONCURRENCY: String(SLOTS),
    ...(dialect === 'postgres' ? { DATABASE_URL, DATABASE_SCHEMA: schema } : {}),
  };
  try {
    const key = run(build.cli, ['keys', 'create', '--credits', '1000000'], env);
    const api = spawn(process.execPath, [build.cli, 'serve', '--no-workers'], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: 'ignore' });
    let creation;
    try {
      await waitForHttp(`http://127.0.0.1:${port}/healthz`);
      const body = JSON.stringify({ ip: '8.8.8.8' });
      const cpu0 = cpuSeconds(api.pid);
      const t0 = performance.now();
      const errors = await createTasks(`http://127.0.0.1:${port}`, key, body);
      const seconds = (performance.now() - t0) / 1000;
      creation = { rps: TASKS / seconds, cpuUs: ((cpuSeconds(api.pid) - cpu0) * 1e6) / TASKS };
      if (errors > 0) throw new Error(`${build.label}: ${errors} creations were not accepted`);
    } finally {
      await stop(api);
    }

    const pending = pendingCounter(dialect, env);
    try {
      const queued = await pending.count();
      const started = performance.now();
      const worker = spawn(process.execPath, [build.cli, 'worker'], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: 'ignore' });
      let workerCpu = 0;
      try {
        for (;;) {
          workerCpu = cpuSeconds(worker.pid) || workerCpu;
          if ((await pending.count()) === 0) break;
          if (performance.now() - started > DRAIN_TIMEOUT_MS) throw new Error(`${build.label}: drain did not finish`);
          await new Promise((r) => setTimeout(r, 25));
        }
      } finally {
        await stop(worker);
      }
      const seconds = (performance.now() - started) / 1000;
      return { creation, queued, drainRate: queued / seconds, workerCpuMs: (workerCpu * 1000) / queued };
    } finally {
      await pending.close();
    }
  } finally {
    if (dialect === 'postgres') await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    fs.rmSync(env.DATA_DIR, { recursive: true, force: true });
  }
}

const best = (rs, f) => Math.max(...rs.map(f));
const least = (rs, f) => Math.min(...rs.map(f));

export default {
  name: 'releases',
  title: 'This tree against earlier releases: task creation and drain, same run',
  async run() {
    const builds = [{ label: 'this tree', cli: path.join(ROOT, 'dist/src/cli.js'), cleanup: () => {} }];
    process.stderr.write(`  building ${RELEASES.join(', ')}…\n`);
    for (const ref of RELEASES) builds.push(buildRelease(ref));
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    const loadBefore = os.loadavg()[0];
    const results = new Map(builds.map((b) => [b.label, { sqlite: [], postgres: [] }]));
    try {
      // Rounds interleave the builds so that a change in the machine's load hits all of them alike.
      for (let i = 0; i < ROUNDS; i++) {
        for (const dialect of STORES) {
          for (const build of builds) {
            const r = await round(build, dialect, admin);
            results.get(build.label)[dialect].push(r);
            process.stderr.write(
              `  ${build.label} ${dialect}: create ${r.creation.rps.toFixed(0)}/s (${r.creation.cpuUs.toFixed(0)} µs), drain ${r.drainRate.toFixed(0)}/s of ${r.queued}\n`,
            );
          }
        }
      }
    } finally {
      await admin.end();
      for (const b of builds) b.cleanup();
    }
    const lines = [
      `Each round: an API node without workers takes ${TASKS.toLocaleString('en')} \`ip.geolocate\` task creations with an API key (32 in flight), then one worker process (${SLOTS} slots) drains everything that was created; time from spawning the worker to the last task finished, so start-up counts. ${ROUNDS} rounds interleaved across builds; the best round of each is shown (on a shared machine the worst rounds measure the neighbours). Releases are built at bench time from this repository's history and share this checkout's node_modules.`,
      '',
      '| build | store | creations/s | server CPU µs/creation | drain tasks/s | worker CPU ms/task |',
      '|---|---|---:|---:|---:|---:|',
    ];
    for (const dialect of STORES) {
      for (const b of builds) {
        const rs = results.get(b.label)[dialect];
        lines.push(
          `| ${b.label} | ${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} | ${best(rs, (r) => r.creation.rps).toFixed(0)} | ${least(rs, (r) => r.creation.cpuUs).toFixed(0)} | ${best(rs, (r) => r.drainRate).toFixed(0)} | ${least(rs, (r) => r.workerCpuMs).toFixed(2)} |`,
        );
      }
    }
    lines.push(
      '',
      `Machine load (1-min average) ${loadBefore.toFixed(1)} before and ${os.loadavg()[0].toFixed(1)} after, on ${os.availableParallelism()} CPUs.`,
    );
    return lines.join('\n');
  },
};
