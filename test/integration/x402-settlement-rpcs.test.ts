// What settlement asks of the RPC node (self mode, settler account), counted per JSON-RPC method by a
// loopback relay in front of the local chain while paid tasks are accepted and settled one after another.
// Acceptance reads the payer's balance and authorization state (one eth_call). A settlement sends the
// transfer: the gas estimate (which runs the transfer, so a used authorization reverts there) and the raw
// transaction, then its receipt. It reads no authorization state first, asks for fees once per fee window
// and for the account's pending nonce once per nonce window (counted locally after each accepted send;
// here one window covers the test), and asks about eth_fillTransaction (the local node lacks it) once per
// process: 3 RPCs a settlement where there were 8 (4 before the nonce was counted locally).
import { x402Client, wrapFetchWithPayment } from '@x402/fetch';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { PaymentRecord } from '../../src/billing/x402/payment-record.js';
import { startLocalChain, type LocalChain } from '../support/local-chain.js';
import { startRpcRelay, type RpcRelay } from '../support/rpc-relay.js';
import { startX402Service, type X402TestService } from '../support/x402-service.js';

const PRICE = 10_000n;
const TASKS = 4;

let chain: LocalChain;
let relay: RpcRelay;
let svc: X402TestService;

beforeAll(async () => {
  chain = await startLocalChain();
  relay = await startRpcRelay(chain.rpcUrl);
  svc = await startX402Service(chain, {
    env: { X402_RPC_URL: relay.url },
    x402: { settlement: { sweepIntervalMs: 600_000 }, feeCacheMs: 600_000, nonceCacheMs: 600_000 },
  });
}, 120_000);

afterAll(async () => {
  await svc?.close();
  await relay?.close();
  await chain?.stop();
});

it('a settlement costs the gas estimate, the send and the receipt; fees and the account nonce are read once per window', async () => {
  const account = privateKeyToAccount(generatePrivateKey());
  await chain.mint(account.address, PRICE * BigInt(TASKS));
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: account });
  const pay = wrapFetchWithPayment(fetch, client);
  relay.counting = true;
  for (let i = 0; i < TASKS; i++) {
    const res = await pay(`${svc.url}/v1/tools/test.echo/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ value: `paid ${i}` }),
    });
    expect(res.status).toBe(202);
    const { task_id: id } = (await res.json()) as { task_id: string };
    const deadline = Date.now() + 60_000;
    while (((await svc.rt.engine.get(id))?.payment as unknown as PaymentRecord).status !== 'settled' && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    await svc.x402.settler.idle();
  }
  relay.counting = false;
  const n = (method: string) => relay.calls.get(method) ?? 0;
  // Acceptance only: settlement reads no authorization state before sending.
  expect(n('eth_call')).toBe(TASKS);
  // The account nonce read once for the window, then counted here.
  expect([n('eth_getTransactionCount'), n('eth_estimateGas'), n('eth_sendRawTransaction')]).toEqual([1, TASKS, TASKS]);
  expect(n('eth_getTransactionReceipt')).toBeGreaterThanOrEqual(TASKS);
  // Fees once for the window, eth_fillTransaction asked at most once.
  expect([n('eth_getBlockByNumber'), n('eth_maxPriorityFeePerGas')]).toEqual([1, 1]);
  expect(n('eth_fillTransaction')).toBeLessThanOrEqual(1);
  expect(n('eth_chainId')).toBe(0);
  // One transfer per task.
  expect(await chain.transfersTo(svc.payTo)).toHaveLength(TASKS);
}, 180_000);
