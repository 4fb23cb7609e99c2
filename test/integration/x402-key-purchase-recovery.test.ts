// Key purchases never lose a settled payment (G3): the RPC node's answers to receipt queries are dropped
// by a loopback relay while the purchase settles, so the transfer is mined but the route's receipt wait
// fails. The purchase stays pending with its transaction hash, the buyer is told so (202, with the key's
// secret for a new key), and the reconciler credits it once, later. A purchase whose hash was never
// recorded is found from the block recorded with it, however many blocks have been mined since. A top-up
// whose key is revoked while its payment is verified is refused before anything is submitted.
// On SQLite and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { x402Client, x402HTTPClient, wrapFetchWithPayment } from '@x402/fetch';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Address } from 'viem';
import { PurchaseReconciler } from '../../src/billing/x402/purchase-reconciler.js';
import { pendingKeyPurchases } from '../../src/billing/x402/pending-purchases.js';
import { verifyPayment } from '../../src/billing/x402/verify.js';
import { createLogger } from '../../src/logger.js';
import type { AnyTool } from '../../src/registry/define-tool.js';
import { sqlRunnerOf } from '../../src/db/sql-runner.js';
import { createApiKey } from '../../src/billing/api-keys.js';
import { startLocalChain, type LocalChain } from '../support/local-chain.js';
import { startRpcRelay, type RpcRelay } from '../support/rpc-relay.js';
import { serviceBackends as backends } from '../support/store-factories.js';
import { startX402Service, type X402TestService } from '../support/x402-service.js';

let chain: LocalChain;
/** In front of the chain: a test drops receipt answers through it, or acts while the service waits on a call. */
let relay: RpcRelay;

beforeAll(async () => {
  chain = await startLocalChain();
  relay = await startRpcRelay(chain.rpcUrl);
});
afterAll(async () => {
  await relay?.close();
  await chain?.stop();
});

const json = { 'content-type': 'application/json' };

async function rpc(method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(chain.rpcUrl, { method: 'POST', headers: json, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return ((await res.json()) as { result: unknown }).result;
}

async function payer(usdc: bigint) {
  const account = privateKeyToAccount(generatePrivateKey());
  await chain.mint(account.address, usdc);
  const client = new x402Client().setSpendControls({ maxAmountPerPayment: 20 });
  registerExactEvmScheme(client, { signer: account });
  return { account, client, pay: wrapFetchWithPayment(fetch, client) };
}

describe.each(backends)('key purchases whose settlement answer is lost, or whose key is revoked meanwhile ($name)', ({ env }) => {
  let svc: X402TestService;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const b = await env();
    drop = b.drop;
    svc = await startX402Service(chain, { env: { X402_KEY_MIN_USD: '1', X402_KEY_MAX_USD: '20', X402_RPC_URL: relay.url, ...b.env } });
  });
  afterAll(async () => {
    relay.dropped.clear();
    await svc?.close();
    await drop?.();
  });

  const reconciler = () =>
    new PurchaseReconciler({
      store: svc.rt.store,
      sql: sqlRunnerOf(svc.rt.store)!,
      chain: svc.x402.chain,
      settings: svc.x402.settings,
      log: createLogger('silent'),
    });
  const pendingOf = async (wallet: Address) =>
    (await pendingKeyPurchases(sqlRunnerOf(svc.rt.store)!, Date.now() + 1, 100)).filter((p) => p.wallet === wallet.toLowerCase());
  const echo = (secret: string) =>
    fetch(`${svc.url}/v1/tools/test.echo/tasks`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${secret}` },
      body: JSON.stringify({ value: 'x' }),
    });

  it('a mined transfer whose receipt wait failed is credited once, later', async () => {
    const p = await payer(10_000_000n);
    const before = await chain.usdcBalance(svc.payTo);
    relay.dropped.add('eth_getTransactionReceipt');
    const res = await p.pay(`${svc.url}/v1/keys`, { method: 'POST', headers: json, body: JSON.stringify({ usd: '5' }) });
    relay.dropped.clear();
    expect(res.status).toBe(202);
    const answer = (await res.json()) as { status: string; api_key: string; key_id: string; transaction: string; purchase_id: string };
    expect(answer).toMatchObject({ status: 'pending' });
    expect(answer.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    // The transfer is on chain; the key is not usable until the credit is granted.
    expect(await chain.usdcBalance(svc.payTo)).toBe(before + 5_000_000n);
    expect((await echo(answer.api_key)).status).toBe(401);

    const [pending] = await pendingOf(p.account.address);
    expect(pending).toMatchObject({ id: answer.purchase_id, payment: { transaction: answer.transaction } });
    const r = reconciler();
    expect(await r.resolve(pending!)).toBe('settled');
    expect((await svc.rt.store.findKey(answer.key_id))?.balanceMicros).toBe(5_000_000);
    expect((await echo(answer.api_key)).status).toBe(202);
    // Once: another pass (the next sweep, another node) grants nothing more.
    expect(await r.resolve(pending!)).toBe('unchecked');
    expect((await svc.rt.store.findKey(answer.key_id))?.balanceMicros).toBe(4_990_000);
    const [listed] = await svc.rt.store.listKeyPurchases(p.account.address, 10);
    expect(listed).toMatchObject({ status: 'settled', keyId: answer.key_id, payment: { transaction: answer.transaction } });
  });

  it('a transfer mined long before the reconciler looks is found from the purchase block', async () => {
    const p = await payer(10_000_000n);
    const usd = '2';
    const asked = await fetch(`${svc.url}/v1/keys`, { method: 'POST', headers: json, body: JSON.stringify({ usd }) });
    const http402 = new x402HTTPClient(p.client);
    const required = http402.getPaymentRequiredResponse((n) => asked.headers.get(n), await asked.json());
    const header = Object.values(http402.encodePaymentSignatureHeader(await p.client.createPaymentPayload(required)))[0]!;
    const item = { name: 'keys.credits', title: 'API key credits', description: 'credits', price: usd, timeoutMs: 60_000 } as unknown as AnyTool;
    const { settings, chain: access, facilitator } = svc.x402;
    const record = await verifyPayment(item, header, `${svc.url}/v1/keys`, { settings, chain: access, facilitator });
    // What the route records before submitting: the block it read, then the process dies after submission.
    const fromBlock = await access!.blockNumber();
    const id = `kp_old${Math.random().toString(36).slice(2, 8)}`;
    await svc.rt.store.reserveKeyPurchase({
      id,
      kind: 'create',
      keyId: null,
      wallet: record.payer,
      micros: 2_000_000,
      payment: { ...record, from_block: fromBlock.toString() } as unknown as Record<string, unknown>,
      nonce: { network: record.network, asset: record.asset, payer: record.payer, nonce: record.authorization.nonce },
      now: Date.now(),
    });
    await access!.waitForReceipt(await access!.submitTransfer(settings.token.address, record.authorization, record.signature));
    // 20,000 blocks later (same timestamps, so later authorizations stay valid), beyond any fixed look-back.
    await rpc('hardhat_mine', ['0x4e20', '0x0']);
    const [pending] = (await pendingOf(record.payer as Address)).filter((x) => x.id === id);
    const afterExpiry = Number(record.authorization.validBefore) * 1000 + 3 * 60_000;
    expect(await reconciler().resolve(pending!, afterExpiry)).toBe('settled');
    const [created] = await svc.rt.store.listKeyPurchases(record.payer, 10);
    expect(created).toMatchObject({ status: 'settled', kind: 'create' });
    expect((await svc.rt.store.findKey(created!.keyId!))?.balanceMicros).toBe(2_000_000);
  });

  it('a top-up cannot credit a key revoked while its payment was verified', async () => {
    const { row, key } = await createApiKey(svc.rt.store, { creditsMicros: 1_000_000 });
    const p = await payer(10_000_000n);
    const before = await chain.usdcBalance(svc.payTo);
    // The operator revokes the key while the service reads the payer's state from the chain.
    relay.beforeRelay = async (methods) => {
      if (!methods.includes('eth_call')) return;
      relay.beforeRelay = undefined;
      await svc.rt.store.revokeKey(row.id, Date.now());
    };
    const res = await p.pay(`${svc.url}/v1/keys/current/credits`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${key}` },
      body: JSON.stringify({ usd: '3' }),
    });
    relay.beforeRelay = undefined;
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe('API_KEY_REVOKED');
    expect((await svc.rt.store.findKey(row.id))?.balanceMicros).toBe(1_000_000);
    expect(await chain.usdcBalance(svc.payTo)).toBe(before);
    const [purchase] = await svc.rt.store.listKeyPurchases(p.account.address, 10);
    expect(purchase).toMatchObject({ kind: 'topup', status: 'unpaid' });
  });
});
