// Settlement survives the death of the process that settles. Two API nodes share one PostgreSQL store and
// one settler account: a settler node (the built test/support/settler-node.js, as `serve --no-workers`
// settles) takes the account's lease first, and an in-process API node with workers takes the paid
// requests and runs the tasks. While the first holds the lease the second submits nothing; the first is
// then SIGKILLed with every payment still pending, and the second takes the lease over once it expires
// and settles them all, each once. The first node's RPC endpoint is a loopback port nobody answers on:
// that keeps its payments pending while it leads (a leader caught with work left), without timing luck.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { x402Client, wrapFetchWithPayment } from '@x402/fetch';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PaymentRecord } from '../../src/billing/x402/payment-record.js';
import { stopChild } from '../support/cli.js';
import { freePort } from '../support/free-port.js';
import { SETTLER_KEY, startLocalChain, type LocalChain } from '../support/local-chain.js';
import { createTestSchema, type TestSchema } from '../support/postgres.js';
import { startX402Service, type X402TestService } from '../support/x402-service.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SETTLER_NODE = path.join(ROOT, 'dist/test/support/settler-node.js');
const PRICE = 10_000n; // test.echo costs 0.01 USD
const TASKS = 6;
const LEASE = { ttlMs: 3_000, renewMs: 500 };
/** Far above the lease's TTL: the survivor must take over within a few renewals of the TTL. */
const SETTLE_BOUND_MS = 60_000;

let chain: LocalChain;
let schema: TestSchema;
let node: X402TestService | undefined;
let child: ChildProcess | undefined;
let childLog = '';
const payTo = privateKeyToAccount(generatePrivateKey()).address;
const leaseName = `x402-settlement:eip155:8453:${privateKeyToAccount(SETTLER_KEY).address.toLowerCase()}`;

async function leaseHolder(): Promise<string | undefined> {
  return (await schema.query<{ holder: string }>('SELECT holder FROM leader_leases WHERE name = $1', [leaseName]))[0]?.holder;
}

async function until<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(v)} after ${timeoutMs} ms\n${childLog.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const paymentStatuses = async () =>
  Object.fromEntries(
    (
      await schema.query<{ status: string; payment: string; n: string }>(
        `SELECT status, payment->>'status' AS payment, count(*) AS n FROM tasks WHERE payer_kind = 'x402' GROUP BY 1, 2`,
      )
    ).map((r) => [`${r.status}/${r.payment}`, Number(r.n)]),
  );

beforeAll(async () => {
  // The proof runs the BUILT settler node: dist/ must be current (npm test builds it first).
  const source = path.join(ROOT, 'src/billing/x402/settlement.ts');
  if (!fs.existsSync(SETTLER_NODE) || fs.statSync(SETTLER_NODE).mtimeMs < fs.statSync(source).mtimeMs) {
    throw new Error(`${SETTLER_NODE} is missing or older than ${source}: run npm run build`);
  }
  chain = await startLocalChain();
  schema = await createTestSchema();
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) await stopChild(child, 'SIGKILL');
  await node?.close();
  await schema?.drop();
  await chain?.stop();
});

it('the other API node settles every payment the SIGKILLed settling node left pending, each once', async () => {
  const x402 = { settlement: { lease: LEASE, sweepIntervalMs: 1_000, sweepGraceMs: 200, retryBaseMs: 60_000 } };
  const env = { ...schema.env, X402_PAY_TO: payTo, X402_SETTLER_KEY: SETTLER_KEY, LOG_LEVEL: 'info' };
  child = spawn(process.execPath, [SETTLER_NODE, JSON.stringify(x402)], {
    env: { ...process.env, ...env, X402_RPC_URL: `http://127.0.0.1:${await freePort()}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.resume();
  child.stderr!.on('data', (b: Buffer) => (childLog += b.toString('utf8')));
  await until('the settler node holds the lease', leaseHolder, (h) => h?.split(':')[1] === String(child!.pid), 60_000);

  node = await startX402Service(chain, { env: { ...schema.env, X402_PAY_TO: payTo }, x402 });
  const account = privateKeyToAccount(generatePrivateKey());
  await chain.mint(account.address, PRICE * BigInt(TASKS));
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: account });
  const pay = wrapFetchWithPayment(fetch, client);
  const ids: string[] = [];
  for (let i = 0; i < TASKS; i++) {
    const res = await pay(`${node.url}/v1/tools/test.echo/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ value: `paid ${i}` }),
    });
    expect(res.status, await res.clone().text()).toBe(202);
    ids.push(((await res.json()) as { task_id: string }).task_id);
  }

  // Every task ran here, but this node does not lead: nothing is settled and nothing was sent.
  expect(await until('the tasks complete', paymentStatuses, (s) => s['complete/pending'] === TASKS, 30_000)).toEqual({ 'complete/pending': TASKS });
  expect(node.x402.settler.leading).toBe(false);
  expect(await chain.transfersTo(payTo)).toEqual([]);

  child.kill('SIGKILL');
  await until(
    'the settler node exits',
    async () => child!.signalCode,
    (s) => s === 'SIGKILL',
    10_000,
  );
  const statuses = await until('the survivor settles', paymentStatuses, (s) => s['complete/settled'] === TASKS, SETTLE_BOUND_MS);
  expect(statuses).toEqual({ 'complete/settled': TASKS });
  expect(node.x402.settler.leading).toBe(true);
  expect((await leaseHolder())?.split(':')[1]).toBe(String(process.pid));

  // One transfer per task, each the one recorded on its task.
  const transfers = await chain.transfersTo(payTo);
  expect(transfers).toHaveLength(TASKS);
  const recorded = await Promise.all(ids.map(async (id) => ((await node!.rt.engine.get(id))?.payment as unknown as PaymentRecord).transaction));
  expect(recorded.sort()).toEqual(transfers.map((t) => t.transactionHash).sort());
}, 240_000);
