// A settlement is counted once however many runs reach it. The settler can meet one payment twice: the
// store's sweep reads a page of pending payments while this process's event path is still settling one of
// them, and takes it again once that run has ended (the page's row still says `pending`); or a holder that
// lost the lease finishes a run the new holder also makes. The second run finds the first's transfer on
// chain and used to record the outcome again: the settled counter read 121 for 120 tasks in the two-node
// test, each with one transfer. Here the row the first run was given is handed to the settler again after
// it ended, as that sweep page does; on SQLite and on PostgreSQL.
import { x402Client, wrapFetchWithPayment } from '@x402/fetch';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentRecord } from '../../src/billing/x402/payment-record.js';
import type { TaskRow } from '../../src/store/port.js';
import { startLocalChain, type LocalChain } from '../support/local-chain.js';
import { serviceBackends as backends } from '../support/store-factories.js';
import { startX402Service, type X402TestService } from '../support/x402-service.js';

const PRICE = 10_000n; // test.echo costs 0.01 USD

let chain: LocalChain;
beforeAll(async () => {
  chain = await startLocalChain();
}, 120_000);
afterAll(async () => {
  await chain?.stop();
});

const counted = (svc: X402TestService, outcome: string) =>
  Number(new RegExp(`x402_settlements_total\\{outcome="${outcome}"\\} (\\d+)`).exec(svc.x402.metrics.render())![1]);

describe.each(backends)('x402 settlement counted once ($name)', ({ env }) => {
  let svc: X402TestService;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const b = await env();
    drop = b.drop;
    svc = await startX402Service(chain, { env: b.env, x402: { settlement: { sweepIntervalMs: 600_000 } } });
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
    await drop?.();
  });

  it('a payment reached again after it settled is neither recorded nor counted again', async () => {
    // The rows the event path hands the settler as tasks finish (payment still pending).
    const finished: TaskRow[] = [];
    svc.rt.engine.events.on('settled', (row) => finished.push(structuredClone(row)));
    const account = privateKeyToAccount(generatePrivateKey());
    await chain.mint(account.address, PRICE);
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: account });
    const res = await wrapFetchWithPayment(fetch, client)(`${svc.url}/v1/tools/test.echo/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ value: 'paid once' }),
    });
    expect(res.status, await res.clone().text()).toBe(202);
    const { task_id: id } = (await res.json()) as { task_id: string };

    const paymentOf = async () => (await svc.rt.engine.get(id))?.payment as unknown as PaymentRecord | undefined;
    const deadline = Date.now() + 60_000;
    while ((await paymentOf())?.status !== 'settled' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await svc.x402.settler.idle();
    const settled = (await paymentOf())!;
    expect(settled).toMatchObject({ status: 'settled', settle_attempts: 1 });
    expect(counted(svc, 'settled')).toBe(1);

    // The same task as the sweep page read before the settlement ended: payment `pending`, no transaction.
    const stale = finished.find((t) => t.id === id)!;
    expect(stale.payment).toMatchObject({ status: 'pending', transaction: null });
    svc.rt.engine.events.emit('settled', stale, null);
    await svc.x402.settler.idle();

    expect(counted(svc, 'settled')).toBe(1);
    expect(await paymentOf()).toEqual(settled);
    const transfers = await chain.transfersTo(svc.payTo);
    expect(transfers.map((t) => t.transactionHash)).toEqual([settled.transaction]);
  }, 120_000);
});
