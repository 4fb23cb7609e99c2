// Self-serve API keys bought with x402 on the local chain, paid by the official @x402/fetch client:
// the 402 asks for exactly the amount, credit exists only after settlement, a payment buys once, and
// the key works for tasks and tops up; purchases a crash left pending are resolved from the chain.
// On SQLite and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { x402Client, x402HTTPClient, wrapFetchWithPayment } from '@x402/fetch';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { createSIWxPayload, encodeSIWxHeader } from '@x402/extensions/sign-in-with-x';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Address, Hash } from 'viem';
import { PurchaseReconciler } from '../../src/billing/x402/purchase-reconciler.js';
import { pendingKeyPurchases } from '../../src/billing/x402/pending-purchases.js';
import { verifyPayment } from '../../src/billing/x402/verify.js';
import { createApiKey } from '../../src/billing/api-keys.js';
import { createLogger } from '../../src/logger.js';
import type { AnyTool } from '../../src/registry/define-tool.js';
import { sqlRunnerOf } from '../../src/db/sql-runner.js';
import { startLocalChain, type LocalChain } from '../support/local-chain.js';
import { serviceBackends as backends } from '../support/store-factories.js';
import { startX402Service, type X402TestService } from '../support/x402-service.js';

let chain: LocalChain;

beforeAll(async () => {
  chain = await startLocalChain();
});
afterAll(async () => {
  await chain?.stop();
});

const json = { 'content-type': 'application/json' };

async function payer(usdc: bigint) {
  const account = privateKeyToAccount(generatePrivateKey());
  await chain.mint(account.address, usdc);
  // A buyer of credits raises the client's per-payment cap (1 USD by default) to what it means to spend.
  const client = new x402Client().setSpendControls({ maxAmountPerPayment: 20 });
  registerExactEvmScheme(client, { signer: account });
  const sent: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    const h = input instanceof Request ? input.headers.get('PAYMENT-SIGNATURE') : new Headers(init?.headers).get('PAYMENT-SIGNATURE');
    if (h) sent.push(h);
    return fetch(input, init);
  };
  return { account, pay: wrapFetchWithPayment(recording, client), sent };
}

describe.each(backends)('self-serve keys ($name)', ({ env }) => {
  let svc: X402TestService;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const b = await env();
    drop = b.drop;
    svc = await startX402Service(chain, { env: { X402_KEY_MIN_USD: '1', X402_KEY_MAX_USD: '20', ...b.env } });
  });
  afterAll(async () => {
    await svc?.close();
    await drop?.();
  });

  it('is described in /openapi.json and the service metadata', async () => {
    const doc = (await (await fetch(`${svc.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId: string }>> };
    expect(doc.paths['/v1/keys']?.post?.operationId).toBe('buy_api_key');
    expect(doc.paths['/v1/keys']?.get?.operationId).toBe('list_bought_keys');
    expect(doc.paths['/v1/keys/current/credits']?.post?.operationId).toBe('top_up_api_key');
    const meta = (await (await fetch(`${svc.url}/.well-known/agent-service.json`)).json()) as { api_keys: Record<string, string> };
    expect(Object.keys(meta.api_keys)).toEqual(['usage', 'tasks', 'buy', 'top_up', 'list_bought']);
  });

  it('asks for exactly the amount and refuses amounts outside the configured range', async () => {
    const res = await fetch(`${svc.url}/v1/keys`, { method: 'POST', headers: json, body: JSON.stringify({ usd: '5' }) });
    expect(res.status).toBe(402);
    const pr = new x402HTTPClient(new x402Client()).getPaymentRequiredResponse((n) => res.headers.get(n), await res.json());
    expect(pr.accepts[0]!.amount).toBe('5000000');
    const tooMuch = await fetch(`${svc.url}/v1/keys`, { method: 'POST', headers: json, body: JSON.stringify({ usd: '21' }) });
    expect(tooMuch.status).toBe(400);
    expect(await tooMuch.json()).toMatchObject({ field: 'usd', error: 'usd: must be between 1 and 20.' });
  });

  it('checks the payment header and the key before reading a body, and reads at most a kilobyte', async () => {
    // 3 MB: over the 2 MB JSON limit of /v1, which was read first.
    const big = JSON.stringify({ usd: '5', pad: 'x'.repeat(3 * 1024 * 1024) });
    const junk = await fetch(`${svc.url}/v1/keys`, { method: 'POST', headers: { ...json, 'PAYMENT-SIGNATURE': 'not-base64-json' }, body: big });
    expect(junk.status).toBe(402);
    expect((await junk.json()).code).toBe('PAYMENT_MALFORMED');
    const wrongKey = await fetch(`${svc.url}/v1/keys/current/credits`, {
      method: 'POST',
      headers: { ...json, authorization: 'Bearer sk_live_notakey' },
      body: big,
    });
    expect(wrongKey.status).toBe(401);
    const unpaidBig = await fetch(`${svc.url}/v1/keys`, { method: 'POST', headers: json, body: JSON.stringify({ usd: '5', pad: 'x'.repeat(2048) }) });
    expect(unpaidBig.status).toBe(413);
  });

  it('buys a key once per payment, uses it, and tops it up', async () => {
    const p = await payer(10_000_000n);
    const bought = await p.pay(`${svc.url}/v1/keys`, { method: 'POST', headers: json, body: JSON.stringify({ usd: '5' }) });
    expect(bought.status).toBe(201);
    const key = (await bought.json()) as { api_key: string; key_id: string; credits_usd: string };
    expect(key).toMatchObject({ credits_usd: '5' });
    expect(key.api_key).toMatch(/^sk_live_/);
    expect(key.key_id).toMatch(/^key_/);
    expect(await chain.usdcBalance(svc.payTo)).toBe(5_000_000n);

    const replay = await fetch(`${svc.url}/v1/keys`, {
      method: 'POST',
      headers: { ...json, 'PAYMENT-SIGNATURE': p.sent[0]! },
      body: JSON.stringify({ usd: '5' }),
    });
    expect(replay.status).toBe(402);
    expect((await replay.json()).code).toBe('PAYMENT_REPLAYED');

    const task = await fetch(`${svc.url}/v1/tools/test.echo/tasks`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${key.api_key}` },
      body: JSON.stringify({ value: 'paid by key' }),
    });
    expect(task.status).toBe(202);

    const topped = await p.pay(`${svc.url}/v1/keys/current/credits`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${key.api_key}` },
      body: JSON.stringify({ usd: '2' }),
    });
    expect(topped.status).toBe(200);
    expect(await topped.json()).toMatchObject({ key_id: key.key_id, added_usd: '2', credits_usd: '6.99' });
    expect(await chain.usdcBalance(svc.payTo)).toBe(7_000_000n);
    // The wallet signs in (SIWX, challenge from any 402 of this service) and lists what it bought.
    const challenge = await fetch(`${svc.url}/v1/tasks`);
    const ext = JSON.parse(Buffer.from(challenge.headers.get('payment-required')!, 'base64').toString('utf8')).extensions['sign-in-with-x'];
    const signed = await createSIWxPayload(
      { ...ext.info, chainId: ext.supportedChains[0].chainId, type: ext.supportedChains[0].type },
      p.account as never,
      `${svc.url}/v1/tasks`,
    );
    const listed = await fetch(`${svc.url}/v1/keys`, { headers: { 'SIGN-IN-WITH-X': encodeSIWxHeader(signed) } });
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { purchases: { kind: string; key_id: string; usd: string; status: string }[] };
    expect(body.purchases.map((x) => [x.kind, x.key_id, x.usd, x.status])).toEqual([
      ['topup', key.key_id, '2', 'settled'],
      ['create', key.key_id, '5', 'settled'],
    ]);
    expect((await fetch(`${svc.url}/v1/keys`)).status).toBe(401);
  });

  it('does not credit a key revoked between the transfer and the credit: the payment is kept on record as owed back', async () => {
    const p = await payer(10_000_000n);
    const { row, key } = await createApiKey(svc.rt.store, { creditsMicros: 1_000_000 });
    const store = svc.rt.store;
    const before = await chain.usdcBalance(svc.payTo);
    // The operator revokes the key right after the transfer is submitted (the route records the
    // transaction hash then), i.e. after the route's own check that the key is live.
    const note = store.noteKeyPurchasePayment.bind(store);
    store.noteKeyPurchasePayment = async (id, payment) => {
      await note(id, payment);
      await store.revokeKey(row.id, Date.now());
    };
    let topped: Response;
    try {
      topped = await p.pay(`${svc.url}/v1/keys/current/credits`, {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${key}` },
        body: JSON.stringify({ usd: '3' }),
      });
    } finally {
      store.noteKeyPurchasePayment = note;
    }
    expect(topped.status).toBe(409);
    const answer = (await topped.json()) as Record<string, string>;
    expect(answer).toMatchObject({ code: 'API_KEY_REVOKED_REFUND_DUE', refund_due_usd: '3' });
    expect(answer.error).toContain('nothing was credited');
    expect(answer.error).toContain(answer.purchase_id);
    // The transfer happened; the dead key got nothing; the purchase says what is owed.
    expect(await chain.usdcBalance(svc.payTo)).toBe(before + 3_000_000n);
    const revoked = await store.findKey(row.id);
    expect(revoked?.revokedAt).not.toBeNull();
    expect(revoked?.balanceMicros).toBe(1_000_000);
    const [purchase] = await store.listKeyPurchases(p.account.address.toLowerCase(), 10);
    expect(purchase).toMatchObject({
      id: answer.purchase_id,
      kind: 'topup',
      status: 'settled',
      payment: { refund_due: true, transaction: answer.transaction },
    });
  });

  describe('key purchases a crash left pending', () => {
    /** What the route records before settling: a verified payment and a pending purchase holding its nonce. */
    async function pendingPurchase(kind: 'create' | 'topup', key: { id: string; secret: string } | null, usd: string) {
      const keyId = key?.id ?? null;
      const p = await payer(10_000_000n);
      const client = new x402Client().setSpendControls({ maxAmountPerPayment: 20 });
      registerExactEvmScheme(client, { signer: p.account });
      const http = new x402HTTPClient(client);
      const path = kind === 'create' ? '/v1/keys' : '/v1/keys/current/credits';
      const asked = await fetch(`${svc.url}${path}`, {
        method: 'POST',
        headers: { ...json, ...(key ? { authorization: `Bearer ${key.secret}` } : {}) },
        body: JSON.stringify({ usd }),
      });
      const required = http.getPaymentRequiredResponse((n) => asked.headers.get(n), await asked.json());
      const header = Object.values(http.encodePaymentSignatureHeader(await client.createPaymentPayload(required)))[0]!;
      const item = { name: 'keys.credits', title: 'API key credits', description: 'credits', price: usd, timeoutMs: 60_000 } as unknown as AnyTool;
      const { settings, chain: access, facilitator } = svc.x402;
      const record = await verifyPayment(item, header, `${svc.url}${path}`, { settings, chain: access, facilitator });
      const id = `kp_crash${Math.random().toString(36).slice(2, 8)}`;
      const nonce = { network: record.network, asset: record.asset, payer: record.payer, nonce: record.authorization.nonce };
      const micros = Number(usd) * 1_000_000;
      await svc.rt.store.reserveKeyPurchase({
        id,
        kind,
        keyId,
        wallet: record.payer,
        micros,
        payment: record as unknown as Record<string, unknown>,
        nonce,
        now: Date.now(),
      });
      return { id, record, pending: async () => (await pendingKeyPurchases(sqlRunnerOf(svc.rt.store)!, Date.now() + 1, 100)).find((x) => x.id === id)! };
    }

    const reconciler = () =>
      new PurchaseReconciler({
        store: svc.rt.store,
        sql: sqlRunnerOf(svc.rt.store)!,
        chain: svc.x402.chain,
        settings: svc.x402.settings,
        log: createLogger('silent'),
      });
    const afterExpiry = (validBefore: string) => Number(validBefore) * 1000 + 3 * 60_000;

    it('grants a top-up whose transfer was mined before the crash, once', async () => {
      const { row, key } = await createApiKey(svc.rt.store, { creditsMicros: 1_000_000 });
      const { id, record, pending } = await pendingPurchase('topup', { id: row.id, secret: key }, '3');
      const before = await chain.usdcBalance(svc.payTo);
      // The process submitted the transfer and died before granting the credit.
      const tx = await svc.x402.chain!.submitTransfer(svc.x402.settings.token.address, record.authorization, record.signature);
      expect((await svc.x402.chain!.waitForReceipt(tx as Hash)).succeeded).toBe(true);
      expect(await chain.usdcBalance(svc.payTo)).toBe(before + 3_000_000n);

      const r = reconciler();
      const p = await pending();
      expect(await r.resolve(p, Date.now())).toBe('waiting');
      expect(await r.resolve(p, afterExpiry(record.authorization.validBefore))).toBe('settled');
      expect((await svc.rt.store.findKey(row.id))?.balanceMicros).toBe(4_000_000);
      // A second pass (another process, the next sweep) grants nothing more.
      expect(await r.resolve(p, afterExpiry(record.authorization.validBefore))).toBe('unchecked');
      expect((await svc.rt.store.findKey(row.id))?.balanceMicros).toBe(4_000_000);
      const listed = await svc.rt.store.listKeyPurchases(record.payer as Address, 10);
      expect(listed.find((x) => x.id === id)).toMatchObject({ status: 'settled', payment: { transaction: tx } });
    });

    it('creates the key of a paid purchase and marks an unsubmitted one unpaid', async () => {
      const paid = await pendingPurchase('create', null, '2');
      await svc.x402.chain!.waitForReceipt(
        await svc.x402.chain!.submitTransfer(svc.x402.settings.token.address, paid.record.authorization, paid.record.signature),
      );
      const lost = await pendingPurchase('create', null, '2');

      const r = reconciler();
      expect(await r.resolve(await paid.pending(), afterExpiry(paid.record.authorization.validBefore))).toBe('settled');
      expect(await r.resolve(await lost.pending(), afterExpiry(lost.record.authorization.validBefore))).toBe('unpaid');

      const [created] = await svc.rt.store.listKeyPurchases(paid.record.payer, 10);
      expect(created).toMatchObject({ status: 'settled', kind: 'create' });
      expect((await svc.rt.store.findKey(created!.keyId!))?.balanceMicros).toBe(2_000_000);
      const [unpaid] = await svc.rt.store.listKeyPurchases(lost.record.payer, 10);
      expect(unpaid).toMatchObject({ status: 'unpaid', keyId: null });
      expect((unpaid!.payment as { reason: string }).reason).toContain('never settled');
    });
  });
});
