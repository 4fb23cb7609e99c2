// url.status throughput against a local HTTP server, compared in the same run with plain undici request
// loops: one reusing keep-alive connections (the fastest possible client) and one opening a fresh
// connection per request (what a status check must do to measure connect time and read certificates).
// Loopback only. The server runs in a child process, so the CPU time measured here is the client's alone.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Agent, Client, request } from 'undici';
import urlStatus from '../dist/tools/url.status.js';
import { loadConfig } from '../dist/src/config.js';
import { createLogger } from '../dist/src/logger.js';
import { ServiceScope } from '../dist/src/registry/services.js';

const CONCURRENCY = 32;
const WARMUP_CALLS = 300;
// Fixed call counts (not durations) keep the number of fresh loopback connections, and so TIME_WAIT
// sockets, bounded: about 2 × ROUNDS × CALLS_PER_SLICE in all.
const CALLS_PER_SLICE = 600;
const ROUNDS = 9;

const SERVER_SOURCE = `
const http = require('node:http');
const server = http.createServer((req, res) => { res.setHeader('content-type', 'text/plain'); res.end('ok'); });
server.keepAliveTimeout = 5000;
server.on('clientError', (err, socket) => socket.destroy());
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
process.stdin.on('end', () => process.exit(0)).resume();
`;

function startServer() {
  const child = spawn(process.execPath, ['-e', SERVER_SOURCE], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout.once('data', (chunk) =>
      resolve({
        port: Number(String(chunk).trim()),
        stop: () =>
          new Promise((done) => {
            child.once('exit', done);
            child.stdin.end();
          }),
      }),
    );
  });
}

/** Runs `calls` calls of `once` from CONCURRENCY loops; returns calls per second, client CPU µs per call, failures. */
async function measure(once, calls) {
  let started = 0;
  let failed = 0;
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (started < calls) {
        started++;
        try {
          if (!(await once())) failed++;
        } catch {
          failed++;
        }
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  return { perSecond: calls / ((performance.now() - t0) / 1000), cpuMicros: (cpu.user + cpu.system) / calls, failed };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function toolContext(scope, config, log) {
  return {
    taskId: 'task_bench',
    idempotencyKey: 'task_bench',
    attempt: 1,
    signal: new AbortController().signal,
    config,
    log,
    use: (def) => scope.use(def),
    progress: () => undefined,
  };
}

export default {
  name: 'url-status',
  title: 'url.status throughput (loopback HTTP)',
  async run() {
    const loadBefore = os.loadavg()[0];
    const server = await startServer();
    const origin = `http://127.0.0.1:${server.port}`;
    const url = `${origin}/`;
    const config = loadConfig({ NETWORK_ALLOWLIST: '127.0.0.1/32', LOG_LEVEL: 'silent', DATA_DIR: '/tmp/url-status-bench', SECRET: 'x'.repeat(40) });
    const log = createLogger('silent');
    const scope = new ServiceScope(config, log);
    // A fresh context (and abort signal) per call, as the engine gives each task.
    const ctx = () => toolContext(scope, config, log);
    const input = urlStatus.input.parse({ url, follow_redirects: true, timeout_ms: 10_000 });
    const keepAlive = new Agent({ connections: CONCURRENCY });

    const candidates = {
      'url.status run()': async () => (await urlStatus.run(ctx(), input)).status_code === 200,
      'undici request, keep-alive': async () => {
        const res = await request(url, { dispatcher: keepAlive });
        await res.body.dump();
        return res.statusCode === 200;
      },
      'undici request, new connection each': async () => {
        const client = new Client(origin);
        try {
          const res = await client.request({ path: '/', method: 'GET' });
          await res.body.dump();
          return res.statusCode === 200;
        } finally {
          await client.destroy();
        }
      },
    };

    const names = Object.keys(candidates);
    const samples = Object.fromEntries(names.map((k) => [k, { perSecond: [], cpuMicros: [] }]));
    const failures = Object.fromEntries(names.map((k) => [k, 0]));
    try {
      for (const once of Object.values(candidates)) await measure(once, WARMUP_CALLS);
      // Short interleaved slices in rotating order, median of each: a busy moment on a shared machine
      // lands on every client alike instead of on one.
      for (let round = 0; round < ROUNDS; round++) {
        for (let i = 0; i < names.length; i++) {
          const name = names[(i + round) % names.length];
          const r = await measure(candidates[name], CALLS_PER_SLICE);
          samples[name].perSecond.push(r.perSecond);
          samples[name].cpuMicros.push(r.cpuMicros);
          failures[name] += r.failed;
        }
      }
    } finally {
      await keepAlive.close();
      await scope.close();
      await server.stop();
    }
    const results = Object.fromEntries(
      names.map((k) => [k, { perSecond: median(samples[k].perSecond), cpuMicros: median(samples[k].cpuMicros), failed: failures[k] }]),
    );
    const ours = results['url.status run()'];
    const rows = Object.entries(results).map(
      ([name, r]) =>
        `| ${name} | ${r.perSecond.toFixed(0)} | ${(ours.perSecond / r.perSecond).toFixed(2)} | ${r.cpuMicros.toFixed(0)} | ${(r.cpuMicros / ours.cpuMicros).toFixed(2)} | ${r.failed} |`,
    );
    const fresh = results['undici request, new connection each'];
    return [
      `${CONCURRENCY} concurrent loops against a local HTTP server (separate process); median of ${ROUNDS} interleaved slices of ${CALLS_PER_SLICE} calls each. Client CPU is this process's user+system time per call.`,
      '',
      '| client | calls/s | url.status ÷ this (throughput) | client CPU µs/call | this ÷ url.status (CPU; ≥ 1: url.status is cheaper) | failures |',
      '|---|---:|---:|---:|---:|---:|',
      ...rows,
      '',
      `**url.status reaches ${(ours.perSecond / fresh.perSecond).toFixed(2)} of the plain undici loop's throughput with a new connection per request (goal ≥ 0.8) and ${(fresh.cpuMicros / ours.cpuMicros).toFixed(2)} of its CPU efficiency.**`,
      'url.status opens a fresh, guarded, pinned connection per check (to time DNS, connect and TLS and to read',
      'the certificate), reads only the headers and closes; that loop is its like-for-like baseline. The keep-alive',
      'loop reuses connections, which a status check must not do, and is shown as the ceiling.',
      `Machine load (1-min average) ${loadBefore.toFixed(1)} before and ${os.loadavg()[0].toFixed(1)} after, on ${os.availableParallelism()} CPUs: on a busy machine the throughput columns are noisy and the CPU column is the steadier comparison.`,
    ].join('\n');
  },
};
