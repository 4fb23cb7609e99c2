// x402 settlement in the PostgreSQL topology of the soak bench: API nodes without workers (which verify
// payments and own settlement) and a separate worker runtime (which runs tasks and, like a `worker`
// process, runs no settlement). Every paid task must settle on chain within a bound well under the
// sweep interval, with no restart: the worker's completions reach the API nodes as the store's
// cross-process wake-up, and a sweep drains more than one page of pending payments. Only the API node
// holding the settler account's lease settles; the other submits nothing.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { x402Client, wrapFetchWithPayment } from '@x402/fetch';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { PaymentRecord } from '../../src/billing/x402/payment-record.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { SETTLER_KEY, startLocalChain, type LocalChain } from '../support/local-chain.js';
import { createTestSchema, type TestSchema } from '../support/postgres.js';
import { testTools } from '../support/test-tools.js';
import { testConfig } from '../support/tool-context.js';
import { startX402Service, type X402TestService } from '../support/x402-service.js';

const PRICE = 10_000n; // test.echo costs 0.01 USD
const PAYERS = 4;
/** More than one sweep page (100). */
const TASKS = 120;
/** Far above the bound below: a payment that waits for the periodic sweep fails the test. */
const SWEEP_INTERVAL_MS = 120_000;
const SETTLE_BOUND_MS = 40_000;

let chain: LocalChain;
let schema: TestSchema;
let api: X402TestService[] = [];
let worker: Runtime | undefined;
const payTo = privateKeyToAccount(generatePrivateKey()).address;

beforeAll(async () => {
  chain = await startLocalChain();
  schema = await createTestSchema();
  const env = { ...schema.env, X402_PAY_TO: payTo };
  const x402 = { settlement: { sweepIntervalMs: SWEEP_INTERVAL_MS, sweepGraceMs: 200 } };
  api = [await startX402Service(chain, { env, x402, workers: false }), await startX402Service(chain, { env, x402, workers: false })];
  // The worker sees no x402 settings, as a `worker` process starts no payments.
  worker = await createRuntime(testConfig({ ...schema.env, POLL_INTERVAL_MS: '50', LEASE_MS: '3000' }), { tools: testTools, workers: true });
}, 120_000);

afterAll(async () => {
  await worker?.close();
  for (const a of api) await a.close();
  await schema?.drop();
  await chain?.stop();
});

it('settles every paid task a separate worker completed, promptly and once, without a restart', async () => {
  const payers: (typeof fetch)[] = [];
  for (let p = 0; p < PAYERS; p++) {
    const account = privateKeyToAccount(generatePrivateKey());
    await chain.mint(account.address, PRICE * BigInt(TASKS)); // one at a time: the minter's nonces
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: account });
    payers.push(wrapFetchWithPayment(fetch, client));
  }
  // Requests alternate between the API nodes, from the payers in parallel.
  const ids: string[] = [];
  await Promise.all(
    payers.map(async (pay, p) => {
      for (let i = p; i < TASKS; i += PAYERS) {
        const res = await pay(`${api[i % api.length]!.url}/v1/tools/test.echo/tasks`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ value: `paid ${i}` }),
        });
        expect(res.status, await res.clone().text()).toBe(202);
        ids.push(((await res.json()) as { task_id: string }).task_id);
      }
    }),
  );

  const deadline = Date.now() + SETTLE_BOUND_MS;
  let statuses: Record<string, number> = {};
  for (;;) {
    const rows = await schema.query<{ status: string; payment: string; n: string }>(
      `SELECT status, payment->>'status' AS payment, count(*) AS n FROM tasks WHERE payer_kind = 'x402' GROUP BY 1, 2`,
    );
    statuses = Object.fromEntries(rows.map((r) => [`${r.status}/${r.payment}`, Number(r.n)]));
    if (statuses['complete/settled'] === TASKS || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const stuck = await schema.query(
    `SELECT id, finished_at, payment->>'settle_attempts' AS attempts, payment->>'last_error' AS error FROM tasks WHERE payment->>'status' <> 'settled'`,
  );
  expect(statuses, JSON.stringify(stuck)).toEqual({ 'complete/settled': TASKS });

  // One transfer per task, each recorded on its task: the transaction it went in (transfers settled
  // together share one) holds a transfer from that task's payer.
  const transfers = await chain.transfersTo(payTo);
  expect(transfers).toHaveLength(TASKS);
  const onChain = transfers.map((t) => `${t.transactionHash} ${t.from.toLowerCase()}`);
  const recorded: string[] = [];
  for (const id of ids) {
    const payment = (await api[0]!.rt.engine.get(id))?.payment as unknown as PaymentRecord;
    recorded.push(`${payment.transaction!} ${payment.payer.toLowerCase()}`);
  }
  expect(recorded.sort()).toEqual(onChain.sort());

  // One API node settled them all: the holder of the settler account's lease. The other sent nothing,
  // so the two never raced for the account's nonce.
  const settledBy = api.map((a) => Number(/x402_settlements_total\{outcome="settled"\} (\d+)/.exec(a.x402.metrics.render())![1]));
  expect(api.map((a) => a.x402.settler.leading)).toEqual(settledBy.map((n) => n > 0));
  expect(settledBy.filter((n) => n === 0)).toHaveLength(1);
  // /metrics counts the transactions the holder sent and the transfers in them: one per task, in as many
  // transactions as the chain holds (transfers asked for during a send went together).
  const counter = (name: string) => api.map((a) => Number(new RegExp(`${name} (\\d+)`).exec(a.x402.metrics.render())![1]));
  expect(counter('agent_utility_x402_transfers_sent_total').reduce((a, b) => a + b)).toBe(TASKS);
  expect(counter('agent_utility_x402_transactions_total').reduce((a, b) => a + b)).toBe(new Set(transfers.map((t) => t.transactionHash)).size);
  // The leases: the settler account's, and the key-purchase reconciliation's (one per store).
  const leases = await schema.query<{ name: string }>('SELECT name FROM leader_leases ORDER BY name');
  expect(leases.map((l) => l.name)).toEqual(['x402-key-purchases', `x402-settlement:eip155:8453:${privateKeyToAccount(SETTLER_KEY).address.toLowerCase()}`]);
}, 180_000);
