// Self-serve API keys bought with x402 on the local chain, paid by the official @x402/fetch client:
// the 402 asks for exactly the amount, credit exists only after settlement, a payment buys once, and
// the key works for tasks and tops up. On SQLite and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { x402Client, x402HTTPClient, wrapFetchWithPayment } from '@x402/fetch';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { createSIWxPayload, encodeSIWxHeader } from '@x402/extensions/sign-in-with-x';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
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

  it('asks for exactly the amount and refuses amounts outside the configured range', async () => {
    const res = await fetch(`${svc.url}/v1/keys`, { method: 'POST', headers: json, body: JSON.stringify({ usd: '5' }) });
    expect(res.status).toBe(402);
    const pr = new x402HTTPClient(new x402Client()).getPaymentRequiredResponse((n) => res.headers.get(n), await res.json());
    expect(pr.accepts[0]!.amount).toBe('5000000');
    const tooMuch = await fetch(`${svc.url}/v1/keys`, { method: 'POST', headers: json, body: JSON.stringify({ usd: '21' }) });
    expect(tooMuch.status).toBe(400);
    expect(await tooMuch.json()).toMatchObject({ field: 'usd', error: 'usd: must be between 1 and 20.' });
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

    const replay = await fetch(`${svc.url}/v1/keys`, { method: 'POST', headers: { ...json, 'PAYMENT-SIGNATURE': p.sent[0]! }, body: JSON.stringify({ usd: '5' }) });
    expect(replay.status).toBe(402);
    expect((await replay.json()).code).toBe('PAYMENT_REPLAYED');

    const task = await fetch(`${svc.url}/v1/tools/test.echo/tasks`, { method: 'POST', headers: { ...json, authorization: `Bearer ${key.api_key}` }, body: JSON.stringify({ value: 'paid by key' }) });
    expect(task.status).toBe(202);

    const topped = await p.pay(`${svc.url}/v1/keys/current/credits`, { method: 'POST', headers: { ...json, authorization: `Bearer ${key.api_key}` }, body: JSON.stringify({ usd: '2' }) });
    expect(topped.status).toBe(200);
    expect(await topped.json()).toMatchObject({ key_id: key.key_id, added_usd: '2', credits_usd: '6.99' });
    expect(await chain.usdcBalance(svc.payTo)).toBe(7_000_000n);
    // The wallet signs in (SIWX, challenge from any 402 of this service) and lists what it bought.
    const challenge = await fetch(`${svc.url}/v1/tasks`);
    const ext = JSON.parse(Buffer.from(challenge.headers.get('payment-required')!, 'base64').toString('utf8')).extensions['sign-in-with-x'];
    const signed = await createSIWxPayload({ ...ext.info, chainId: ext.supportedChains[0].chainId, type: ext.supportedChains[0].type }, p.account as never, `${svc.url}/v1/tasks`);
    const listed = await fetch(`${svc.url}/v1/keys`, { headers: { 'SIGN-IN-WITH-X': encodeSIWxHeader(signed) } });
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { purchases: { kind: string; key_id: string; usd: string; status: string }[] };
    expect(body.purchases.map((x) => [x.kind, x.key_id, x.usd, x.status])).toEqual([['topup', key.key_id, '2', 'settled'], ['create', key.key_id, '5', 'settled']]);
    expect((await fetch(`${svc.url}/v1/keys`)).status).toBe(401);
  });
});
