// email.verify over 1,000 addresses at 50 local domains, with the per-domain cache off (the baseline:
// every address costs its own MX lookup and catch-all test) and on, in the same run. Loopback only: Knot
// DNS serves the domains, scripted smtp-server peers answer on 127.26.0.x. Reports wall time, SMTP
// connections the servers saw, MX lookups, and the outcome counts (which must agree between the runs).
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import ts from 'typescript';
import emailVerify from '../dist/tools/email.verify.js';
import { loadConfig } from '../dist/src/config.js';
import { emailDomainCacheService } from '../dist/src/email/domain-cache.js';
import { createLogger } from '../dist/src/logger.js';
import { ServiceScope } from '../dist/src/registry/services.js';

const DOMAINS = 50;
const ADDRESSES = 1_000;
// As many as one worker process runs at once (the tool's `concurrency`).
const CONCURRENCY = 32;
const STRICT = '127.26.0.1';
const CATCH_ALL = '127.26.0.2';
const USERS = Array.from({ length: 10 }, (_, i) => `user${i}`);

/** The test harnesses are TypeScript; compile them for this plain-JS run (type-only syntax is erased). */
async function loadSupport(name) {
  const source = fs.readFileSync(new URL(`../test/support/${name}.ts`, import.meta.url), 'utf8');
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  // Inside the project so that bare imports (smtp-server) resolve from its node_modules.
  const dir = new URL('../node_modules/.cache/agent-utility-bench/', import.meta.url);
  fs.mkdirSync(dir, { recursive: true });
  const file = new URL(`${name}.mjs`, dir);
  fs.writeFileSync(file, js);
  return import(file.href);
}

function domainName(i) {
  return `d${String(i).padStart(2, '0')}.bench.test`;
}

/** Every fifth domain is a catch-all; half of each domain's addresses exist on the strict ones. */
function addresses() {
  const list = [];
  for (let n = 0; n < ADDRESSES; n++) {
    const d = n % DOMAINS;
    const known = Math.floor(n / DOMAINS) % 2 === 0;
    list.push(`${known ? USERS[((n / DOMAINS) % USERS.length) | 0] : `nobody${n}`}@${domainName(d)}`);
  }
  return list;
}

function makeContext(env) {
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: fs.mkdtempSync('/tmp/email-bench-'), ...env });
  const log = createLogger('silent');
  const scope = new ServiceScope(config, log);
  let tasks = 0;
  return {
    scope,
    config,
    ctxFor: () => ({
      taskId: `task_bench${tasks++}`,
      idempotencyKey: `bench${tasks}`,
      attempt: 1,
      // One signal per task, as the engine gives them.
      signal: new AbortController().signal,
      config,
      log,
      use: (def) => scope.use(def),
      progress: () => undefined,
    }),
    close: async () => {
      await scope.close();
      fs.rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

async function runPass(label, env, peers, list) {
  const c = makeContext(env);
  const before = peers.connections();
  const outcomes = {};
  let next = 0;
  let failures = 0;
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < list.length) {
        const email = list[next++];
        try {
          const r = await emailVerify.run(c.ctxFor(), { email });
          outcomes[r.status_detail] = (outcomes[r.status_detail] ?? 0) + 1;
        } catch {
          failures++;
        }
      }
    }),
  );
  const wallMs = performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const cache = (await c.scope.use(emailDomainCacheService)).stats();
  await c.close();
  return { label, wallMs, cpuMs, connections: peers.connections() - before, mxLookups: cache.routeMisses, outcomes, failures };
}

export default {
  name: 'email',
  title: 'email.verify: 1,000 addresses over 50 local domains, per-domain cache off vs on',
  async run() {
    const { startKnot } = await loadSupport('knot');
    const { startSmtpPeers } = await loadSupport('smtp-peers');
    const peers = await startSmtpPeers([
      { host: STRICT, behaviour: 'strict', users: USERS },
      { host: CATCH_ALL, behaviour: 'catch_all' },
    ]);
    const records = [];
    for (let i = 0; i < DOMAINS; i++) {
      const name = `d${String(i).padStart(2, '0')}`;
      records.push(`${name} 300 IN MX 10 mx.${name}`, `mx.${name} 300 IN A ${i % 5 === 0 ? CATCH_ALL : STRICT}`);
    }
    const knot = await startKnot([{ origin: 'bench.test', records }]);
    try {
      const env = {
        DNS_SERVERS: knot.server,
        SMTP_PROBE_PORT: String(peers.port),
        NETWORK_ALLOWLIST: '127.26.0.0/16',
        SMTP_HELO_NAME: 'bench.probe.test',
        SMTP_MAIL_FROM: 'verify@bench.probe.test',
        SMTP_PROBE_TIMEOUT_MS: '5000',
        SMTP_PROBE_BUDGET_MS: '10000',
      };
      const list = addresses();
      // A short warm-up so neither pass pays for JIT and first TLS setup alone.
      await runPass('warm-up', { ...env, EMAIL_CACHE_TTL_S: '0' }, peers, list.slice(0, 50));
      // Two rounds each, alternating, so drift on the machine hits both; the faster round of each is shown.
      const offRuns = [];
      const onRuns = [];
      for (let round = 0; round < 2; round++) {
        offRuns.push(await runPass('cache off (baseline)', { ...env, EMAIL_CACHE_TTL_S: '0' }, peers, list));
        onRuns.push(await runPass('cache on (TTL 600 s)', { ...env, EMAIL_CACHE_TTL_S: '600' }, peers, list));
      }
      const fastest = (runs) => runs.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
      const off = fastest(offRuns);
      const on = fastest(onRuns);

      const row = (r) =>
        `| ${r.label} | ${(r.wallMs / 1000).toFixed(2)} s | ${Math.round((ADDRESSES / r.wallMs) * 1000)} | ${(r.cpuMs / 1000).toFixed(2)} s | ${r.connections} | ${r.mxLookups} | ${r.failures} |`;
      const outcomeKeys = [...new Set([...Object.keys(off.outcomes), ...Object.keys(on.outcomes)])].sort();
      return [
        `${ADDRESSES} addresses, ${DOMAINS} domains (every fifth a catch-all, the rest strict with STARTTLS on a self-signed certificate), ` +
          `${CONCURRENCY} verifications in flight, Knot DNS and two smtp-server peers in the same process, all on loopback. ` +
          'smtp-server pauses 100 ms before its greeting (an early-talker check, as many real MTAs do), which bounds each session. Best of two rounds per mode.',
        '',
        '| run | wall time | addresses/s | CPU (client and servers) | SMTP connections | MX lookups | failed tasks |',
        '|---|---:|---:|---:|---:|---:|---:|',
        row(off),
        row(on),
        '',
        `Cache effect: wall time ×${(off.wallMs / on.wallMs).toFixed(2)} and CPU ×${(off.cpuMs / on.cpuMs).toFixed(2)} (the strict domains still need one session per address, and sessions dominate), ${off.connections - on.connections} fewer SMTP connections ` +
          `(${Math.round((1 - on.connections / off.connections) * 100)} %), ${off.mxLookups - on.mxLookups} fewer MX lookups.`,
        '',
        '| status_detail | cache off | cache on |',
        '|---|---:|---:|',
        ...outcomeKeys.map((k) => `| ${k} | ${off.outcomes[k] ?? 0} | ${on.outcomes[k] ?? 0} |`),
      ].join('\n');
    } finally {
      await knot.stop();
      await peers.stop();
    }
  },
};
