// Foundation: task creation rate, create → complete → poll for dns.lookup against a local Knot, and
// poll rate — each against the HTTP-layer ceiling (a bare Express 5 route) measured in the same run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closedLoop, openLoop, fmt } from './lib/load.mjs';
import { postTask, waitCompleted } from './lib/rest.mjs';
import { cli, freePort, ROOT, startNode, startService, tempDir } from './lib/processes.mjs';

const { startKnot } = await import(path.join(ROOT, 'dist/test/support/knot.js'));

const CONCURRENCY = 32;
const TICKS_PER_SECOND = 100; // Linux USER_HZ

/** CPU seconds a process has used (user + system), from /proc. */
function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND;
}

/**
 * Runs a load and adds the server's CPU per answered request (µs). On a busy machine requests/s mostly
 * measure the neighbours; the server's own CPU per request is the steadier comparison with the baseline.
 */
async function withServerCpu(pid, load) {
  const before = cpuSeconds(pid);
  const t0 = performance.now();
  const r = await load();
  const seconds = (performance.now() - t0) / 1000;
  // closedLoop's rate leaves out its warm-up; count the requests over the whole time the CPU was counted.
  return { ...r, cpuUsPerRequest: ((cpuSeconds(pid) - before) * 1e6) / (r.rps * seconds) };
}
const DURATION = 5000;

export default {
  name: 'foundation',
  title: 'Engine and REST: creation, polling, dns.lookup end to end',
  async run() {
    const knot = await startKnot([{ origin: 'bench.test', records: ['@ 300 IN A 127.0.0.1', '@ 300 IN MX 10 mx'] }]);
    const bare = await startNode(path.join(ROOT, 'bench/lib/bare-express.mjs'));
    const bareNode = await startNode(path.join(ROOT, 'bench/lib/bare-node.mjs'));
    const cleanup = [() => knot.stop(), () => bare.stop(), () => bareNode.stop()];
    const loadBefore = os.loadavg()[0];
    try {
      const body = JSON.stringify({ domain: 'bench.test', record_type: 'A' });
      const post = (token) => () => ({
        method: 'POST',
        path: '/v1/tools/dns.lookup/tasks',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body,
      });

      const ceiling = await withServerCpu(bare.child.pid, () =>
        closedLoop(`http://127.0.0.1:${bare.port}`, { concurrency: CONCURRENCY, durationMs: DURATION, makeRequest: post(), expectStatus: 202 }),
      );
      const nodeCeiling = await withServerCpu(bareNode.child.pid, () =>
        closedLoop(`http://127.0.0.1:${bareNode.port}`, { concurrency: CONCURRENCY, durationMs: DURATION, makeRequest: post(), expectStatus: 202 }),
      );
      // The latency baselines under the same open loop as the creation rows below.
      const bareAt1000 = await openLoop(`http://127.0.0.1:${bare.port}`, { rate: 1000, durationMs: DURATION, makeRequest: post(), expectStatus: 202 });
      const nodeAt1000 = await openLoop(`http://127.0.0.1:${bareNode.port}`, { rate: 1000, durationMs: DURATION, makeRequest: post(), expectStatus: 202 });

      // API node without workers: creation and polling only.
      const apiDir = tempDir();
      const apiPort = await freePort();
      const env = { DATA_DIR: apiDir, PORT: String(apiPort), RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_KEY: '0', DNS_SERVERS: knot.server, LEADS_PORT: '0' };
      const key = cli(['keys', 'create', '--credits', '100000'], env);
      const api = await startService(['serve', '--no-workers'], env, `http://127.0.0.1:${apiPort}/healthz`);
      cleanup.push(() => api.stop());
      const origin = `http://127.0.0.1:${apiPort}`;
      const creation = await withServerCpu(api.child.pid, () =>
        closedLoop(origin, { concurrency: CONCURRENCY, durationMs: DURATION, makeRequest: post(key), expectStatus: 202 }),
      );
      // Three rounds: one 5-second round's p99 is the worst 50 requests, so a single stall of a neighbour
      // can decide it; all three are reported.
      const rounds = [];
      for (let i = 0; i < 3; i++) rounds.push(await openLoop(origin, { rate: 1000, durationMs: DURATION, makeRequest: post(key), expectStatus: 202 }));

      // Poll rate: GET one task with its poll token.
      const created = await postTask(origin, key, 'dns.lookup', body);
      const polling = await withServerCpu(api.child.pid, () =>
        closedLoop(origin, {
          concurrency: CONCURRENCY,
          durationMs: DURATION,
          makeRequest: () => ({ method: 'GET', path: created.poll_url, headers: { authorization: `Bearer ${created.poll_token}` } }),
          expectStatus: 200,
        }),
      );
      await api.stop();

      // Full service with workers: create → complete → poll (?wait) for dns.lookup against Knot.
      const fullDir = tempDir();
      const fullPort = await freePort();
      const fullEnv = { ...env, DATA_DIR: fullDir, PORT: String(fullPort), POLL_INTERVAL_MS: '200' };
      const fullKey = cli(['keys', 'create', '--credits', '100000'], fullEnv);
      const full = await startService(['serve'], fullEnv, `http://127.0.0.1:${fullPort}/healthz`);
      cleanup.push(() => full.stop());
      const fullOrigin = `http://127.0.0.1:${fullPort}`;
      const roundTrip = async () => {
        const t0 = performance.now();
        await waitCompleted(fullOrigin, await postTask(fullOrigin, fullKey, 'dns.lookup', body));
        return performance.now() - t0;
      };
      for (let i = 0; i < 20; i++) await roundTrip(); // warm up
      const sequential = [];
      for (let i = 0; i < 300; i++) sequential.push(await roundTrip());
      sequential.sort((a, b) => a - b);
      const e2eStart = performance.now();
      let e2eDone = 0;
      const e2eStop = e2eStart + DURATION;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (performance.now() < e2eStop) {
            await roundTrip();
            e2eDone++;
          }
        }),
      );
      const e2eRate = (e2eDone / (performance.now() - e2eStart)) * 1000;
      const p = (q) => sequential[Math.floor(q * (sequential.length - 1))];

      const ratio = creation.rps / ceiling.rps;
      return `
| Measurement | Requests/s | p50 ms | p99 ms | Server CPU µs/request | Errors |
|---|---:|---:|---:|---:|---:|
| **Baseline:** bare Express 5 route, 202 + small JSON (${CONCURRENCY} in flight) | ${fmt(ceiling.rps, 0)} | ${fmt(ceiling.p50, 2)} | ${fmt(ceiling.p99, 2)} | ${fmt(ceiling.cpuUsPerRequest, 0)} | ${ceiling.errors} |
| **Baseline:** bare Node \`http\` handler, reads the JSON, 202 + small JSON (${CONCURRENCY} in flight) | ${fmt(nodeCeiling.rps, 0)} | ${fmt(nodeCeiling.p50, 2)} | ${fmt(nodeCeiling.p99, 2)} | ${fmt(nodeCeiling.cpuUsPerRequest, 0)} | ${nodeCeiling.errors} |
| **Baseline:** bare Express 5 route at a fixed 1,000 req/s (open loop) | ${fmt(bareAt1000.rps, 0)} | ${fmt(bareAt1000.p50, 2)} | ${fmt(bareAt1000.p99, 2)} | | ${bareAt1000.errors} |
| **Baseline:** bare Node \`http\` handler at a fixed 1,000 req/s (open loop) | ${fmt(nodeAt1000.rps, 0)} | ${fmt(nodeAt1000.p50, 2)} | ${fmt(nodeAt1000.p99, 2)} | | ${nodeAt1000.errors} |
| Task creation with an API key (${CONCURRENCY} in flight; validate, charge, insert, sign poll token) | ${fmt(creation.rps, 0)} | ${fmt(creation.p50, 2)} | ${fmt(creation.p99, 2)} | ${fmt(creation.cpuUsPerRequest, 0)} | ${creation.errors} |
${rounds.map((r, i) => `| Task creation at a fixed 1,000 req/s (open loop, latency from scheduled send), round ${i + 1} | ${fmt(r.rps, 0)} | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} | | ${r.errors} |`).join('\n')}
| Poll (GET /v1/tasks/{id} with poll token, ${CONCURRENCY} in flight) | ${fmt(polling.rps, 0)} | ${fmt(polling.p50, 2)} | ${fmt(polling.p99, 2)} | ${fmt(polling.cpuUsPerRequest, 0)} | ${polling.errors} |
| dns.lookup create → complete → poll (\`?wait\`), one at a time | ${fmt(1000 / p(0.5), 0)} | ${fmt(p(0.5), 2)} | ${fmt(p(0.99), 2)} | | 0 |
| dns.lookup create → complete → poll, 16 agents at once | ${fmt(e2eRate, 0)} | | | | 0 |

- Creation rate is **${fmt(ratio * 100, 0)}%** of the bare-Express ceiling (goal ≥ 50%); by server CPU per request, creation costs **${fmt(creation.cpuUsPerRequest / ceiling.cpuUsPerRequest, 1)}×** the bare route (${fmt((100 * ceiling.cpuUsPerRequest) / creation.cpuUsPerRequest, 0)}% of its rate where the server's CPU is the limit) and a poll **${fmt(polling.cpuUsPerRequest / ceiling.cpuUsPerRequest, 1)}×**. Against the bare Node handler: creation at **${fmt((100 * creation.rps) / nodeCeiling.rps, 0)}%** of its rate, **${fmt(creation.cpuUsPerRequest / nodeCeiling.cpuUsPerRequest, 1)}×** its CPU per request.
- Machine load (1-min average) ${fmt(loadBefore, 1)} before and ${fmt(os.loadavg()[0], 1)} after, on ${os.availableParallelism()} CPUs: on a busy machine the requests/s and latency columns measure the neighbours too.
- p99 creation latency at 1,000 req/s: **${rounds.map((r) => fmt(r.p99, 2)).join(', ')} ms** in three rounds (goal ≤ 10 ms); the bare Express route ${fmt(bareAt1000.p99, 2)} ms and the bare Node handler ${fmt(nodeAt1000.p99, 2)} ms under the same load.
- Task creation and polls with a poll token are answered by the service's fast lane on plain Node \`http\` (src/http/fast-lane.ts), everything else by Express.
- Server and load generator share this machine's cores; the API node ran without workers for the creation and poll rows, with workers (SQLite, WAL) for the dns.lookup rows.
`;
    } finally {
      for (const c of cleanup.reverse()) await c().catch(() => undefined);
    }
  },
};
