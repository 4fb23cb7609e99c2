// The scale-out proof: 2 API nodes (`serve --no-workers`) and 3 CLI workers (`worker`), plus one worker
// process for a tool with side effects, all on one PostgreSQL schema, run 2,000 tasks of mixed kinds
// while workers are SIGKILLed and restarted at random. Then, from the database and from what the
// outside world saw:
//  - every task reached a terminal state, and no task was lost or duplicated;
//  - no claim ran twice: DNS queries observed per task (each task asks a unique name) ≤ its attempts;
//  - the side-effect tool ran at most once per task (every run is a row in side_effect_runs);
//  - every key-paid task was charged once, refunded at most once and only when it did not complete,
//    and every key's balance equals its ledger;
//  - each x402 nonce created exactly one task, even when submitted twice at the same moment;
//  - idempotency keys and poll tokens work across API nodes.
import { spawn, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import dnsLookup from '../../tools/dns.lookup.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { AppError } from '../../src/errors.js';
import { createApiKey } from '../../src/billing/api-keys.js';
import { CLI, runCli, spawnCli, stopChild, waitForHttp } from '../support/cli.js';
import { freePort } from '../support/free-port.js';
import { startKnot, type KnotServer } from '../support/knot.js';
import { createTestSchema, type TestSchema } from '../support/postgres.js';
import { api } from '../support/service.js';
import { SIDE_EFFECT_RUNS_TABLE, sideEffectTool } from '../support/side-effect-tool.js';
import { testConfig } from '../support/tool-context.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SIDE_EFFECT_WORKER = path.join(ROOT, 'dist/test/support/side-effect-worker.js');
const ZONE = 'cluster.test';
const REST_TASKS = 1_600;
const IDEMPOTENT_TASKS = 50; // each sent to both API nodes at once with one Idempotency-Key
const X402_TASKS = 150; // each nonce submitted twice at once
const SIDE_EFFECT_TASKS = 200;
// dns.lookup tasks whose first query the proxy never answers: they stay running on the worker that claimed
// them until that worker is killed, so the first kill always hits running tasks (no race with fast lookups).
const HELD_TASKS = 6;
const TOTAL = HELD_TASKS + REST_TASKS + IDEMPOTENT_TASKS + X402_TASKS + SIDE_EFFECT_TASKS;
const DNS_PRICE = 1_000;
const SIDE_EFFECT_PRICE = 2_000;
const KEY_CREDITS_USD = 2;
const SECRET = randomBytes(32).toString('base64url');

/**
 * UDP proxy in front of Knot counting distinct queries (message ids) per name: retransmits reuse the id.
 * For a held name (`h<n>.` + zone) the first query id is swallowed, with its retransmits; any later query
 * for the name (a new attempt after a crash) is answered.
 */
interface CountingProxy {
  server: string;
  runsFor(name: string): number;
  close(): Promise<void>;
}

async function startCountingProxy(upstream: KnotServer): Promise<CountingProxy> {
  const socket = dgram.createSocket('udp4');
  const ids = new Map<string, Set<number>>();
  socket.on('message', (msg, from) => {
    const labels: string[] = [];
    for (let i = 12; i < msg.length && msg[i] !== 0; i += msg[i]! + 1) labels.push(msg.subarray(i + 1, i + 1 + msg[i]!).toString('ascii'));
    const name = labels.join('.').toLowerCase();
    let set = ids.get(name);
    if (!set) ids.set(name, (set = new Set()));
    const id = msg.readUInt16BE(0);
    set.add(id);
    if (/^h\d+\./.test(name) && set.values().next().value === id) return;
    const up = dgram.createSocket('udp4');
    up.on('message', (answer) => {
      socket.send(answer, from.port, from.address);
      up.close();
    });
    up.on('error', () => up.close());
    up.send(msg, upstream.port, '127.0.0.1');
  });
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', () => r()));
  return {
    server: `127.0.0.1:${socket.address().port}`,
    runsFor: (name) => ids.get(name.toLowerCase())?.size ?? 0,
    close: () => new Promise<void>((r) => socket.close(() => r())),
  };
}

interface Proc {
  name: string;
  args: string[];
  child: ChildProcess;
  log: string[];
  /** Workers: set once the process logged that it started (its signal handlers are installed). */
  ready: boolean;
}

let schema: TestSchema;
let knot: KnotServer;
let proxy: CountingProxy;
let local: Runtime;
const procs: Proc[] = [];
const dataDirs: string[] = [];

function env(extra: Record<string, string> = {}): Record<string, string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-cluster-'));
  dataDirs.push(dataDir);
  return {
    ...schema.env,
    // Each process has its own DATA_DIR: nothing is shared but PostgreSQL and the secret.
    DATA_DIR: dataDir,
    SECRET,
    DNS_SERVERS: proxy.server,
    LEASE_MS: '2000',
    POLL_INTERVAL_MS: '200',
    LOG_LEVEL: 'warn',
    LEADS_PORT: '0',
    RATE_LIMIT_PER_KEY: '0',
    RATE_LIMIT_PER_IP: '0',
    ...extra,
  };
}

function start(name: string, args: string[], extra: Record<string, string> = {}): Proc {
  const e = env(extra);
  const child =
    args[0] === SIDE_EFFECT_WORKER ? spawn(process.execPath, args, { env: { ...process.env, ...e }, stdio: ['ignore', 'pipe', 'pipe'] }) : spawnCli(args, e);
  const log: string[] = [];
  const p: Proc = { name, args, child, log, ready: false };
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    if (/worker started/.test(chunk)) p.ready = true;
    log.push(chunk);
    if (log.length > 200) log.shift();
  });
  child.stdout?.resume();
  procs.push(p);
  return p;
}

beforeAll(async () => {
  // The proof runs the BUILT command: dist/ must be current (npm test builds it first). Not rebuilt from
  // here: setup may reinstall node_modules, which would pull the ground from under the running suite.
  for (const [built, source] of [
    [CLI, 'src/db/tasks/postgres-store.ts'],
    [SIDE_EFFECT_WORKER, 'test/support/side-effect-worker.ts'],
  ] as const) {
    if (!fs.existsSync(built) || fs.statSync(built).mtimeMs < fs.statSync(path.join(ROOT, source)).mtimeMs) {
      throw new Error(`${built} is missing or older than ${source}: run npm run build`);
    }
  }
  schema = await createTestSchema();
  await schema.query(SIDE_EFFECT_RUNS_TABLE);
  knot = await startKnot([{ origin: ZONE, records: ['* 300 IN A 127.0.0.7', '* 300 IN MX 10 mail.cluster.test.', '* 300 IN TXT "v=cluster"'] }]);
  proxy = await startCountingProxy(knot);
  // This process submits the x402 and side-effect tasks through the real engine (no workers here).
  local = await createRuntime(testConfig({ ...schema.env, SECRET, DNS_SERVERS: proxy.server, LEASE_MS: '2000', POLL_INTERVAL_MS: '200' }), {
    workers: false,
    tools: [dnsLookup, sideEffectTool],
  });
}, 240_000);

afterAll(async () => {
  await Promise.all(procs.map((p) => stopChild(p.child, 'SIGKILL')));
  await local?.close();
  await proxy?.close();
  await knot?.stop();
  await schema?.drop();
  for (const d of dataDirs) fs.rmSync(d, { recursive: true, force: true });
});

const RECORD_TYPES = ['A', 'MX', 'TXT'] as const;
type DnsTask = { id: string; name: string; type: (typeof RECORD_TYPES)[number] };

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function pool<T>(items: T[], concurrency: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i]!, i);
      }
    }),
  );
}

describe('a cluster on PostgreSQL survives SIGKILLed workers', () => {
  it(`runs ${TOTAL} mixed tasks: none lost, none run twice, charged once, nonces used once`, async () => {
    const t0 = Date.now();
    const phase = (what: string) => process.stderr.write(`cluster: ${what} at +${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    // One key made with the CLI, straight into PostgreSQL; the others through the store port.
    const cliKey = runCli(['keys', 'create', '--credits', String(KEY_CREDITS_USD), '--label', 'a', '--json'], env({ LOG_LEVEL: 'silent' }));
    expect(cliKey.status, cliKey.stderr).toBe(0);
    const keys = [JSON.parse(cliKey.stdout) as { key: string; id: string }];
    for (const label of ['b', 'c', 'side']) {
      const made = await createApiKey(local.store, { creditsMicros: KEY_CREDITS_USD * 1_000_000, label });
      keys.push({ key: made.key, id: made.row.id });
    }
    const sideKey = keys[3]!;

    // Processes start one after another: a Node process needs 1–3 s of CPU to start, and a burst of seven
    // would starve test files running beside this one.
    const ports = [await freePort(), await freePort()];
    const urls = ports.map((p) => `http://127.0.0.1:${p}`);
    const nodes: Proc[] = [];
    for (const [i, port] of ports.entries()) {
      nodes.push(start(`api${i}`, ['serve', '--no-workers', '--port', String(port)]));
      await waitForHttp(`${urls[i]}/healthz`, 60_000);
    }
    // Workers log at info level only so the test sees "worker started" (handlers installed, ready to kill).
    const startWorker = (i: number) =>
      i === 3
        ? start('side-effect-worker', [SIDE_EFFECT_WORKER], { LOG_LEVEL: 'info', WORKER_CONCURRENCY: '8' })
        : start(`worker${i}`, ['worker'], { LOG_LEVEL: 'info' });
    const workers: Proc[] = [];
    const runningHeld = async () =>
      await schema.query<{ lease_owner: string }>("SELECT lease_owner FROM tasks WHERE status = 'running' AND input->>'domain' LIKE 'h%'");
    // The aimed DNS kill, made before the chaos so it never depends on luck or machine speed: worker0, up
    // alone, claims the held tasks (their lookups hang), and is SIGKILLed while it runs them. Other
    // workers must recover them once their leases expire.
    workers.push(startWorker(0));
    await until(() => workers[0]!.ready, 60_000, 'worker0 to start');
    const held: DnsTask[] = [];
    for (let i = 0; i < HELD_TASKS; i++) {
      const name = `h${i}.${ZONE}`;
      const r = await api(urls[0]!, 'POST', '/v1/tools/dns.lookup/tasks', { token: keys[0]!.key, body: { domain: name, record_type: 'A' } });
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      held.push({ id: r.body.task_id, name, type: 'A' });
    }
    for (const deadline = Date.now() + 60_000; (await runningHeld()).length < HELD_TASKS; await new Promise((r) => setTimeout(r, 20))) {
      if (Date.now() > deadline) throw new Error('timed out waiting for worker0 to run the held tasks');
    }
    expect((await runningHeld()).every((t) => t.lease_owner.includes(`:${workers[0]!.child.pid}:`))).toBe(true);
    await stopChild(workers[0]!.child, 'SIGKILL');
    workers[0] = startWorker(0);
    for (const i of [0, 1, 2]) {
      if (i > 0) workers.push(startWorker(i));
      await until(() => workers[i]!.ready, 60_000, `worker${i} to start`);
    }
    let sideWorker = startWorker(3);
    await until(() => sideWorker.ready, 60_000, 'the side-effect worker to start');
    expect(nodes.every((n) => n.child.exitCode === null)).toBe(true);
    phase('2 API nodes up');

    // Chaos: every 3–6 s, SIGKILL a worker that is up (a Node process needs 1–3 s of CPU to start on this
    // 2-core machine, so killing faster mostly burns CPU on restarts) and start a new one. The first kill
    // is aimed: the side-effect worker while it runs several tasks. After that, victims are random.
    let chaos = true;
    let kills = 1; // worker0, above
    let sideKilledBusy = 0;
    const chaosLoop = (async () => {
      while (chaos) {
        await new Promise((r) => setTimeout(r, sideKilledBusy === 0 ? 500 : 3000 + Math.random() * 3000));
        if (!chaos) break;
        let pick: number | undefined;
        if (sideKilledBusy === 0 && sideWorker.ready) {
          const busy = (await schema.query<{ n: number }>("SELECT COUNT(*)::int AS n FROM tasks WHERE tool = 'test.side_effect' AND status = 'running'"))[0]!.n;
          if (busy >= 3) {
            pick = 3;
            sideKilledBusy = busy;
          }
        } else {
          const candidates = [0, 1, 2, 3].filter((i) => (i === 3 ? sideWorker : workers[i]!).ready);
          if (candidates.length > 0) pick = candidates[Math.floor(Math.random() * candidates.length)]!;
        }
        if (pick === undefined) continue;
        await stopChild((pick === 3 ? sideWorker : workers[pick]!).child, 'SIGKILL');
        kills++;
        await new Promise((r) => setTimeout(r, 200 + Math.random() * 400));
        if (pick === 3) sideWorker = startWorker(3);
        else workers[pick] = startWorker(pick);
      }
    })();

    try {
      // 0. Side-effect tasks (charged to a key), run only by the side-effect worker process, submitted
      // while the REST tasks go in so they are running while workers die.
      const side: string[] = [];
      const sideSubmission = pool(
        Array.from({ length: SIDE_EFFECT_TASKS }, (_, i) => i),
        2,
        async (i) => {
          const r = await local.engine.submit(
            'test.side_effect',
            { hold_ms: 200 + ((i * 37) % 1300) },
            { payer: { kind: 'key', id: sideKey.id }, chargeKeyId: sideKey.id },
          );
          expect(r.task.maxAttempts).toBe(1);
          side.push(r.task.id);
          await new Promise((done) => setTimeout(done, 50));
        },
      );

      // 1. REST dns.lookup tasks, alternating between the two API nodes, one unique name each.
      const rest: (DnsTask & { node: number; pollToken: string; keyId: string })[] = [];
      const restJobs = Array.from({ length: REST_TASKS }, (_, i) => i);
      await pool(restJobs, 24, async (i) => {
        const node = i % 2;
        const key = keys[i % 3]!;
        const type = RECORD_TYPES[i % 3]!;
        const name = `r${i}.${ZONE}`;
        const r = await api(urls[node]!, 'POST', '/v1/tools/dns.lookup/tasks', { token: key.key, body: { domain: name, record_type: type } });
        expect(r.status, JSON.stringify(r.body)).toBe(202);
        rest.push({ id: r.body.task_id, name, type, node, pollToken: r.body.poll_token, keyId: key.id });
      });

      phase('REST tasks submitted');
      // 2. The same Idempotency-Key sent to both API nodes at the same moment: one task.
      const idempotent: DnsTask[] = [];
      await pool(
        Array.from({ length: IDEMPOTENT_TASKS }, (_, i) => i),
        8,
        async (i) => {
          const name = `i${i}.${ZONE}`;
          const send = (node: number) =>
            api(urls[node]!, 'POST', '/v1/tools/dns.lookup/tasks', {
              token: keys[0]!.key,
              body: { domain: name, record_type: 'A' },
              headers: { 'idempotency-key': `cluster-${i}` },
            });
          const [a, b] = await Promise.all([send(0), send(1)]);
          expect([a.status, b.status]).toEqual([202, 202]);
          expect([a.headers.get('idempotent-replayed'), b.headers.get('idempotent-replayed')].sort()).toEqual(['true', null].sort());
          expect(a.body.task_id).toBe(b.body.task_id);
          idempotent.push({ id: a.body.task_id, name, type: 'A' });
        },
      );

      phase('idempotent pairs submitted');
      // 3. x402-paid tasks: each payment nonce submitted twice at once; the unique index admits one.
      const x402: (DnsTask & { nonce: string })[] = [];
      const wallet = `0x${randomBytes(20).toString('hex')}`;
      await pool(
        Array.from({ length: X402_TASKS }, (_, i) => i),
        8,
        async (i) => {
          const name = `x${i}.${ZONE}`;
          const nonce = `0x${randomBytes(32).toString('hex')}`;
          const submit = () =>
            local.engine
              .submit(
                'dns.lookup',
                { domain: name, record_type: 'A' },
                {
                  payer: { kind: 'x402', id: wallet },
                  nonce: { network: 'eip155:84532', asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', payer: wallet, nonce },
                  payment: { status: 'verified', nonce },
                },
              )
              .then(
                (r) => ({ ok: true as const, id: r.task.id }),
                (err: unknown) => ({ ok: false as const, code: err instanceof AppError ? err.code : String(err) }),
              );
          const outcomes = await Promise.all([submit(), submit()]);
          const created = outcomes.filter((o) => o.ok);
          expect(created).toHaveLength(1);
          expect(outcomes.filter((o) => !o.ok).map((o) => (o.ok ? '' : o.code))).toEqual(['PAYMENT_REPLAYED']);
          x402.push({ id: created[0]!.ok ? created[0]!.id : '', name, type: 'A', nonce });
        },
      );

      phase('x402 tasks submitted');
      await sideSubmission;
      phase('side-effect tasks submitted');
      // Wait until nothing is pending or running (bounded), with the chaos still going on.
      const deadline = Date.now() + 150_000;
      for (;;) {
        const open = (await schema.query<{ open: number }>("SELECT COUNT(*)::int AS open FROM tasks WHERE status IN ('pending', 'running')"))[0]!.open;
        if (open === 0) break;
        if (Date.now() > deadline) throw new Error(`${open} tasks still open after the deadline`);
        await new Promise((r) => setTimeout(r, 500));
      }
      phase('all tasks terminal');
      chaos = false;
      await chaosLoop;

      // --- Nothing lost, nothing extra, everything terminal.
      const rows = await schema.query<{
        id: string;
        tool: string;
        status: string;
        error_kind: string | null;
        attempts: number;
        max_attempts: number;
        result: any;
        payer_kind: string;
        payer_id: string | null;
        charged_micros: number;
      }>('SELECT id, tool, status, error_kind, attempts, max_attempts, result, payer_kind, payer_id, charged_micros FROM tasks');
      const byId = new Map(rows.map((r) => [r.id, r]));
      const submitted = [...held.map((t) => t.id), ...rest.map((t) => t.id), ...idempotent.map((t) => t.id), ...x402.map((t) => t.id), ...side];
      expect(new Set(submitted).size).toBe(TOTAL);
      expect(rows).toHaveLength(TOTAL);
      for (const id of submitted) expect(byId.get(id)?.status, id).toMatch(/^(complete|failed)$/);

      // --- DNS tasks: never more runs than claims; a completed task ran, and ran once if claimed once.
      const dnsTasks = [...held, ...rest, ...idempotent, ...x402];
      let recovered = 0;
      for (const t of dnsTasks) {
        const row = byId.get(t.id)!;
        const runs = proxy.runsFor(t.name);
        expect(runs, `${t.name}: ${runs} runs, ${row.attempts} attempts`).toBeLessThanOrEqual(row.attempts);
        if (row.attempts > 1) recovered++;
        if (row.status === 'complete') {
          expect(runs).toBeGreaterThanOrEqual(1);
          if (row.attempts === 1) expect(runs).toBe(1);
          expect(row.result.domain).toBe(t.name);
          expect(row.result.records[t.type].length).toBeGreaterThan(0);
        } else {
          // A DNS task may fail here only because its worker died on every attempt, or because the machine was
          // so loaded that the lookup outran the tool's time limit (seen in CI on two cores): either way it ends
          // failed and refunded once (checked with the money below), never lost nor run twice.
          expect(row.error_kind).toMatch(/^(crashed|timeout)$/);
          if (row.error_kind === 'crashed') expect(row.attempts).toBe(row.max_attempts);
        }
      }
      expect(kills).toBeGreaterThanOrEqual(2);
      expect(sideKilledBusy).toBeGreaterThanOrEqual(3);
      // The kills really hit running tasks, and those tasks were recovered by other processes.
      expect(recovered).toBeGreaterThanOrEqual(HELD_TASKS);
      for (const t of held) expect(byId.get(t.id)!.attempts, t.name).toBeGreaterThanOrEqual(2);

      // --- Side effects: at most one run per task; a completed task ran exactly once, the run it reports.
      const runs = await schema.query<{ task_id: string; run_id: string }>('SELECT task_id, run_id FROM side_effect_runs');
      const runsByTask = new Map<string, string[]>();
      for (const r of runs) runsByTask.set(r.task_id, [...(runsByTask.get(r.task_id) ?? []), r.run_id]);
      for (const id of side) {
        const row = byId.get(id)!;
        const taskRuns = runsByTask.get(id) ?? [];
        expect(taskRuns.length, `${id} ran ${taskRuns.length} times`).toBeLessThanOrEqual(1);
        expect(row.attempts).toBeLessThanOrEqual(1);
        if (row.status === 'complete') expect(taskRuns).toEqual([row.result.run_id]);
        else expect(row.error_kind).toBe('crashed');
      }
      // The worker killed mid-run took its side-effect tasks down with it: they failed, and were not run again.
      expect(side.filter((id) => byId.get(id)!.status === 'failed').length).toBeGreaterThan(0);

      // --- Money: one charge per key-paid task, a refund exactly when it did not complete, balances = ledgers.
      const ledger = await schema.query<{ task_id: string; reason: string; n: number; sum: number }>(
        'SELECT task_id, reason, COUNT(*)::int AS n, SUM(delta_micros)::bigint AS sum FROM credit_ledger WHERE task_id IS NOT NULL GROUP BY task_id, reason',
      );
      const entries = new Map(ledger.map((l) => [`${l.task_id}/${l.reason}`, l]));
      const expectedSpend = new Map<string, number>();
      for (const row of rows.filter((r) => r.payer_kind === 'key')) {
        const price = row.tool === 'test.side_effect' ? SIDE_EFFECT_PRICE : DNS_PRICE;
        expect(row.charged_micros).toBe(price);
        expect(entries.get(`${row.id}/charge`)).toMatchObject({ n: 1, sum: -price });
        if (row.status === 'complete') {
          expect(entries.has(`${row.id}/refund`)).toBe(false);
          expectedSpend.set(row.payer_id!, (expectedSpend.get(row.payer_id!) ?? 0) + price);
        } else {
          expect(entries.get(`${row.id}/refund`)).toMatchObject({ n: 1, sum: price });
        }
      }
      const balances = await schema.query<{ id: string; balance_micros: number; ledger: number }>(
        'SELECT k.id, k.balance_micros, COALESCE(SUM(l.delta_micros), 0)::bigint AS ledger FROM api_keys k LEFT JOIN credit_ledger l ON l.key_id = k.id GROUP BY k.id',
      );
      expect(balances).toHaveLength(keys.length);
      for (const b of balances) {
        expect(b.balance_micros).toBe(b.ledger);
        expect(b.balance_micros).toBe(KEY_CREDITS_USD * 1_000_000 - (expectedSpend.get(b.id) ?? 0));
      }

      // --- x402: one task per nonce, each nonce's task is the one that was created, nothing charged to keys.
      const nonces = await schema.query<{ nonce: string; task_id: string }>('SELECT nonce, task_id FROM payment_nonces');
      expect(nonces).toHaveLength(X402_TASKS);
      const taskByNonce = new Map(nonces.map((n) => [n.nonce, n.task_id]));
      for (const t of x402) {
        expect(taskByNonce.get(t.nonce.toLowerCase())).toBe(t.id);
        expect(byId.get(t.id)).toMatchObject({ payer_kind: 'x402', charged_micros: 0 });
      }
      expect(new Set(nonces.map((n) => n.task_id)).size).toBe(X402_TASKS);

      // --- Poll tokens signed on one API node are honoured by the other, which sees the same state.
      for (const t of rest.slice(0, 40)) {
        const other = urls[1 - t.node]!;
        const r = await api(other, 'GET', `/v1/tasks/${t.id}`, { token: t.pollToken });
        expect(r.status).toBe(200);
        expect(r.body.status).toBe(byId.get(t.id)!.status);
      }
      // And a task settled elsewhere answers a long poll at once on either node.
      const last = rest[rest.length - 1]!;
      const waited = await api(urls[1 - last.node]!, 'GET', `/v1/tasks/${last.id}?wait=5`, { token: last.pollToken });
      expect(waited.body.status).toBe(byId.get(last.id)!.status);

      const failed = rows.filter((r) => r.status === 'failed');
      phase(
        `verified: ${kills} SIGKILLs; ${recovered} DNS tasks recovered after a crash; ` +
          `${failed.filter((r) => r.tool === 'dns.lookup').length} DNS and ${failed.filter((r) => r.tool === 'test.side_effect').length} side-effect tasks ` +
          `failed as crashed (refunded); ${runs.length} side-effect runs for ${side.length} tasks`,
      );
    } catch (err) {
      for (const p of procs) if (p.log.length > 0) process.stderr.write(`--- ${p.name} (${p.child.pid}) stderr tail:\n${p.log.join('').slice(-3000)}\n`);
      throw err;
    } finally {
      chaos = false;
      await chaosLoop;
    }
    // API nodes and surviving workers shut down cleanly on SIGTERM.
    const survivors = [...nodes, ...workers, sideWorker];
    const readyBy = Date.now() + 30_000;
    while ([...workers, sideWorker].some((w) => !w.ready) && Date.now() < readyBy) await new Promise((r) => setTimeout(r, 100));
    await Promise.all(survivors.map((p) => stopChild(p.child, 'SIGTERM')));
    for (const p of survivors) expect(p.child.exitCode, `${p.name} exit`).toBe(0);
    phase('cluster stopped');
  }, 240_000);
});
