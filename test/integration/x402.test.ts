// x402 end to end on a local chain (Hardhat, chainId 8453, Circle's FiatTokenV2_2 at the Base USDC
// address, Multicall3) with the official clients: @x402/fetch + @x402/evm pay, @x402/extensions signs
// in. Covers the 402 answer, payment and settlement after success only, replays, refusals with their
// reasons, wallet sign-in (SIWX), settlement retries ending unpaid, the store sweep, and a facilitator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { x402Client, x402HTTPClient, wrapFetchWithPayment } from '@x402/fetch';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { ExactEvmSchemeV1 } from '@x402/evm/v1';
import { validateDiscoveryExtension } from '@x402/extensions/bazaar';
import { createSIWxClientExtension, createSIWxPayload, encodeSIWxHeader } from '@x402/extensions/sign-in-with-x';
import { parseAbi, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { Settler } from '../../src/billing/x402/settlement.js';
import { transferWithAuthorizationTypes } from '../../src/billing/x402/token-abi.js';
import { EngineEvents } from '../../src/engine/events.js';
import type { PaymentRecord } from '../../src/billing/x402/payment-record.js';
import { jsonSchemaOf } from '../../src/registry/registry.js';
import { startX402 } from '../../src/billing/x402/payments.js';
import { createRuntime } from '../../src/runtime.js';
import { BASE_USDC, FACILITATOR_KEY, SETTLER_KEY, startLocalChain, type LocalChain } from '../support/local-chain.js';
import { testConfig } from '../support/tool-context.js';
import { echoTool, testTools } from '../support/test-tools.js';
import { startOfficialFacilitator } from '../support/x402-facilitator.js';
import { startX402Service, type X402TestService } from '../support/x402-service.js';

let chain: LocalChain;
let svc: X402TestService;

beforeAll(async () => {
  chain = await startLocalChain();
  svc = await startX402Service(chain);
});
afterAll(async () => {
  await svc?.close();
  await chain?.stop();
});

const PRICE = 10_000n; // test tools cost 0.01 USD = 10,000 USDC atomic units

interface Payer {
  account: PrivateKeyAccount;
  client: InstanceType<typeof x402Client>;
  /** fetch that pays with the official client; records each PAYMENT-SIGNATURE it sent. */
  pay: typeof fetch;
  sent: string[];
}

async function newPayer(usdc: bigint, opts: { signIn?: boolean } = {}): Promise<Payer> {
  const account = privateKeyToAccount(generatePrivateKey());
  if (usdc > 0n) await chain.mint(account.address, usdc);
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: account });
  if (opts.signIn) client.registerExtension(createSIWxClientExtension({ signers: [account as never] }));
  const sent: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    const header = input instanceof Request ? input.headers.get('PAYMENT-SIGNATURE') : new Headers(init?.headers).get('PAYMENT-SIGNATURE');
    if (header) sent.push(header);
    return fetch(input, init);
  };
  return { account, client, pay: wrapFetchWithPayment(recording, client), sent };
}

const json = { 'content-type': 'application/json' };

function create(base: string, tool: string, body: unknown, headers: Record<string, string> = {}, f: typeof fetch = fetch) {
  return f(`${base}/v1/tools/${tool}/tasks`, { method: 'POST', headers: { ...json, ...headers }, body: JSON.stringify(body) });
}

function decode(header: string | null): any {
  expect(header).toBeTruthy();
  return JSON.parse(Buffer.from(header!, 'base64').toString('utf8'));
}

/** The 402 of an unpaid request, as the official client reads it. */
async function paymentRequired(base: string, tool: string, body: unknown) {
  const res = await create(base, tool, body);
  expect(res.status).toBe(402);
  return new x402HTTPClient(new x402Client()).getPaymentRequiredResponse((n) => res.headers.get(n), await res.json());
}

/** A PAYMENT-SIGNATURE built by the official client from a (possibly altered) 402. */
async function signedHeader(p: Payer, pr: Awaited<ReturnType<typeof paymentRequired>>): Promise<string> {
  const payload = await p.client.createPaymentPayload(pr);
  return new x402HTTPClient(p.client).encodePaymentSignatureHeader(payload)['PAYMENT-SIGNATURE']!;
}

async function pollDone(base: string, created: { poll_url: string; poll_token: string }) {
  const res = await fetch(`${base}${created.poll_url}?wait=20`, { headers: { authorization: `Bearer ${created.poll_token}` } });
  expect(res.status).toBe(200);
  return res.json() as Promise<any>;
}

/** Waits until the task's payment left `pending`. */
async function finalPayment(s: X402TestService, taskId: string): Promise<PaymentRecord> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const t = await s.rt.engine.get(taskId);
    const p = t?.payment as unknown as PaymentRecord | undefined;
    if (p && p.status !== 'pending') return p;
    if (Date.now() > deadline) throw new Error(`payment of ${taskId} still pending: ${JSON.stringify(p)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const authorizationState = parseAbi(['function authorizationState(address authorizer, bytes32 nonce) view returns (bool)']);

describe('402 answer', () => {
  it('carries x402 v2 requirements, the Bazaar extension and a sign-in challenge, in header and body', async () => {
    const res = await create(svc.url, 'test.echo', { value: 'x' });
    expect(res.status).toBe(402);
    const header = decode(res.headers.get('payment-required'));
    const body = await res.json();
    expect(header.x402Version).toBe(2);
    expect(header.resource).toEqual({ url: `${svc.url}/v1/tools/test.echo/tasks`, description: expect.stringContaining('Echo'), mimeType: 'application/json' });
    expect(header.accepts).toHaveLength(1);
    const accept = header.accepts[0];
    expect(accept).toMatchObject({
      scheme: 'exact',
      network: 'eip155:8453',
      asset: BASE_USDC,
      amount: String(PRICE),
      payTo: svc.payTo,
      extra: { name: 'USD Coin', version: '2' },
    });
    // Long enough for the queue, every attempt of the tool and settlement afterwards.
    expect(accept.maxTimeoutSeconds).toBeGreaterThan((echoTool.timeoutMs / 1000) * 3 + 300);
    // The body holds the same object next to the service's own error fields.
    expect(body).toMatchObject({ code: 'PAYMENT_REQUIRED', x402Version: 2, accepts: header.accepts, resource: header.resource });
    expect(body.error).toMatch(/0\.01 USD/);

    const bazaar = header.extensions.bazaar;
    expect(validateDiscoveryExtension(bazaar)).toEqual({ valid: true });
    expect(bazaar.info.input).toEqual({ type: 'http', method: 'POST', bodyType: 'json', body: echoTool.example });
    expect(bazaar.schema.properties.input.properties.body).toEqual(jsonSchemaOf(echoTool.input, 'input'));
    expect(bazaar.schema.properties.output.properties.result).toMatchObject(jsonSchemaOf(echoTool.output, 'output'));

    const siwx = header.extensions['sign-in-with-x'];
    expect(siwx.info).toMatchObject({ domain: new URL(svc.url).host, uri: header.resource.url, version: '1' });
    expect(siwx.info.nonce).toMatch(/^[0-9a-f]{48}$/);
    expect(siwx.supportedChains).toEqual([{ chainId: 'eip155:8453', type: 'eip191' }]);
    // Each 402 carries a fresh challenge.
    const again = decode((await create(svc.url, 'test.echo', { value: 'x' })).headers.get('payment-required'));
    expect(again.extensions['sign-in-with-x'].info.nonce).not.toBe(siwx.info.nonce);
  });

  it('answers an unknown tool 404 and invalid input 400 before asking anyone to pay', async () => {
    const unknown = await create(svc.url, 'no.such', { value: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('payment-required')).toBeNull();
    const invalid = await create(svc.url, 'test.echo', { value: '' });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('payment-required')).toBeNull();
    expect((await invalid.json()).field).toBe('value');
  });
});

describe('paying with the official client', () => {
  it('runs a paid task, then settles it on chain: balances move by exactly the price', async () => {
    const p = await newPayer(1_000_000n);
    const before = { payer: await chain.usdcBalance(p.account.address), payTo: await chain.usdcBalance(svc.payTo) };
    const res = await create(svc.url, 'test.echo', { value: 'paid' }, {}, p.pay);
    expect(res.status).toBe(202);
    const created = await res.json();
    expect(created.poll_token).toMatch(/^pt_/);
    expect(p.sent).toHaveLength(1);

    const task = await pollDone(svc.url, created);
    expect(task).toMatchObject({ status: 'complete', result: { value: 'paid' } });
    const payment = await finalPayment(svc, created.task_id);
    expect(payment).toMatchObject({ status: 'settled', payer: p.account.address, amount: String(PRICE), network: 'eip155:8453', pay_to: svc.payTo });
    const receipt = await chain.client.getTransactionReceipt({ hash: payment.transaction as Hex });
    expect(receipt.status).toBe('success');

    expect(await chain.usdcBalance(p.account.address)).toBe(before.payer - PRICE);
    expect(await chain.usdcBalance(svc.payTo)).toBe(before.payTo + PRICE);
    // The task object shows the payment with its transaction.
    const shown = await pollDone(svc.url, created);
    expect(shown.payment).toMatchObject({
      payer: p.account.address,
      amount: String(PRICE),
      network: 'eip155:8453',
      status: 'settled',
      transaction: payment.transaction,
    });
  });

  it('accepts a v1 X-PAYMENT header with the same authorization', async () => {
    const p = await newPayer(100_000n);
    const pr = await paymentRequired(svc.url, 'test.echo', { value: 'v1' });
    const a = pr.accepts[0]!;
    const v1 = await new ExactEvmSchemeV1(p.account).createPaymentPayload(1, {
      scheme: 'exact',
      network: 'base',
      maxAmountRequired: a.amount,
      resource: pr.resource.url,
      description: '',
      mimeType: 'application/json',
      payTo: a.payTo,
      maxTimeoutSeconds: a.maxTimeoutSeconds,
      asset: a.asset,
      extra: a.extra,
    } as never);
    const header = new x402HTTPClient(p.client).encodePaymentSignatureHeader(v1 as never)['X-PAYMENT']!;
    const res = await create(svc.url, 'test.echo', { value: 'v1' }, { 'X-PAYMENT': header });
    expect(res.status).toBe(202);
    const created = await res.json();
    expect((await pollDone(svc.url, created)).status).toBe('complete');
    expect((await finalPayment(svc, created.task_id)).status).toBe('settled');
    expect(await chain.usdcBalance(p.account.address)).toBe(100_000n - PRICE);
  });

  it('never settles a task that fails: no transfer, the payment is void', async () => {
    const p = await newPayer(1_000_000n);
    const res = await create(svc.url, 'test.fail', { kind: 'permanent' }, {}, p.pay);
    expect(res.status).toBe(202);
    const created = await res.json();
    expect((await pollDone(svc.url, created)).status).toBe('failed');
    const payment = await finalPayment(svc, created.task_id);
    expect(payment.status).toBe('void');
    expect(payment.transaction).toBeNull();
    expect(payment.reason).toMatch(/failed/);
    expect(await chain.usdcBalance(p.account.address)).toBe(1_000_000n);
    const used = await chain.client.readContract({
      address: BASE_USDC,
      abi: authorizationState,
      functionName: 'authorizationState',
      args: [p.account.address, payment.authorization.nonce],
    });
    expect(used).toBe(false);
  });
});

describe('one signature, one task', () => {
  it('refuses a sequential replay before and after settlement; one transfer in all', async () => {
    const p = await newPayer(1_000_000n);
    const res = await create(svc.url, 'test.echo', { value: 'once' }, {}, p.pay);
    expect(res.status).toBe(202);
    const created = await res.json();
    const signature = p.sent[0]!;

    const replay = await create(svc.url, 'test.echo', { value: 'once' }, { 'PAYMENT-SIGNATURE': signature });
    expect(replay.status).toBe(402);
    expect(await replay.json()).toMatchObject({ code: 'PAYMENT_REPLAYED', task_id: created.task_id });

    await pollDone(svc.url, created);
    expect((await finalPayment(svc, created.task_id)).status).toBe('settled');
    const late = await create(svc.url, 'test.echo', { value: 'once' }, { 'PAYMENT-SIGNATURE': signature });
    expect(late.status).toBe(402);
    expect(await late.json()).toMatchObject({ code: 'PAYMENT_REPLAYED', reason: 'invalid_exact_evm_nonce_already_used' });

    expect(await chain.usdcBalance(p.account.address)).toBe(1_000_000n - PRICE);
    expect((await chain.transfersTo(svc.payTo)).filter((t) => t.from === p.account.address)).toHaveLength(1);
  });

  it('creates exactly one task from one signature sent many times at once', async () => {
    const p = await newPayer(1_000_000n);
    const header = await signedHeader(p, await paymentRequired(svc.url, 'test.echo', { value: 'race' }));
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        create(svc.url, 'test.echo', { value: 'race' }, { 'PAYMENT-SIGNATURE': header }).then(async (r) => ({ status: r.status, body: await r.json() })),
      ),
    );
    const accepted = answers.filter((a) => a.status === 202);
    expect(accepted).toHaveLength(1);
    const refused = answers.filter((a) => a.status === 402);
    expect(refused).toHaveLength(11);
    for (const r of refused) expect(r.body.code).toBe('PAYMENT_REPLAYED');

    const taskId = accepted[0]!.body.task_id;
    expect((await finalPayment(svc, taskId)).status).toBe('settled');
    expect(await chain.usdcBalance(p.account.address)).toBe(1_000_000n - PRICE);
    expect((await chain.transfersTo(svc.payTo)).filter((t) => t.from === p.account.address)).toHaveLength(1);
    const listed = await svc.rt.engine.listByPayer({ kind: 'x402', id: p.account.address }, 50);
    expect(listed.map((t) => t.id)).toEqual([taskId]);
  });

  it('never answers a replayed payment with a poll token, Idempotency-Key or not', async () => {
    const p = await newPayer(1_000_000n);
    const header = await signedHeader(p, await paymentRequired(svc.url, 'test.echo', { value: 'idem' }));
    const headers = { 'PAYMENT-SIGNATURE': header, 'Idempotency-Key': 'retry-1' };
    const first = await create(svc.url, 'test.echo', { value: 'idem' }, headers);
    expect(first.status).toBe(202);
    const a = await first.json();
    // Whoever saw the request (header and key) replays it: 402, no poll token for the payer's result.
    const replay = await create(svc.url, 'test.echo', { value: 'idem' }, headers);
    expect(replay.status).toBe(402);
    const refused = await replay.json();
    expect(refused).toMatchObject({ code: 'PAYMENT_REPLAYED', task_id: a.task_id });
    expect(refused.poll_token).toBeUndefined();
    expect(await svc.rt.engine.listByPayer({ kind: 'x402', id: p.account.address }, 10)).toHaveLength(1);
    expect((await finalPayment(svc, a.task_id)).status).toBe('settled');
    expect(await chain.usdcBalance(p.account.address)).toBe(1_000_000n - PRICE);
  });

  it('returns the first task to a retry with the same Idempotency-Key and a fresh signature, charging once', async () => {
    const p = await newPayer(1_000_000n);
    const pr = await paymentRequired(svc.url, 'test.echo', { value: 'retry' });
    const key = { 'Idempotency-Key': 'retry-2' };
    const first = await create(svc.url, 'test.echo', { value: 'retry' }, { ...key, 'PAYMENT-SIGNATURE': await signedHeader(p, pr) });
    expect(first.status).toBe(202);
    const a = await first.json();
    // Only the wallet can sign anew: that proves the retry is the payer's, so it may read its task.
    const fresh = await signedHeader(p, pr);
    const retry = await create(svc.url, 'test.echo', { value: 'retry' }, { ...key, 'PAYMENT-SIGNATURE': fresh });
    expect(retry.status).toBe(202);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const b = await retry.json();
    expect(b.task_id).toBe(a.task_id);
    expect((await pollDone(svc.url, b)).status).toBe('complete');
    // The fresh signature is used up by that answer, with the key or without.
    for (const headers of [{ ...key, 'PAYMENT-SIGNATURE': fresh }, { 'PAYMENT-SIGNATURE': fresh }]) {
      const again = await create(svc.url, 'test.echo', { value: 'retry' }, headers);
      expect(again.status).toBe(402);
      expect(await again.json()).toMatchObject({ code: 'PAYMENT_REPLAYED', task_id: a.task_id });
    }
    expect((await finalPayment(svc, a.task_id)).status).toBe('settled');
    expect(await chain.usdcBalance(p.account.address)).toBe(1_000_000n - PRICE);
    expect((await chain.transfersTo(svc.payTo)).filter((t) => t.from === p.account.address)).toHaveLength(1);
  });
});

describe('refused payments say why', () => {
  type Alter = (accept: any) => any;
  const cases: [string, Alter, string, string, RegExp][] = [
    [
      'wrong amount',
      (a) => ({ ...a, amount: String(PRICE - 1n) }),
      'PAYMENT_WRONG_AMOUNT',
      'invalid_exact_evm_payload_authorization_value_mismatch',
      /costs exactly 10000/,
    ],
    [
      'wrong payTo',
      (a) => ({ ...a, payTo: privateKeyToAccount(generatePrivateKey()).address }),
      'PAYMENT_WRONG_RECIPIENT',
      'invalid_exact_evm_recipient_mismatch',
      /must pay 0x/,
    ],
    ['expired window', (a) => ({ ...a, maxTimeoutSeconds: -60 }), 'PAYMENT_EXPIRED', 'invalid_exact_evm_payload_authorization_valid_before', /expired/],
    [
      'window too short to run and settle',
      (a) => ({ ...a, maxTimeoutSeconds: 20 }),
      'PAYMENT_WINDOW_TOO_SHORT',
      'invalid_exact_evm_payload_authorization_valid_before',
      /needs at least \d+ s/,
    ],
  ];
  for (const [name, alter, code, reason, message] of cases) {
    it(`${name} → 402 ${code}`, async () => {
      const p = await newPayer(1_000_000n);
      const pr = await paymentRequired(svc.url, 'test.echo', { value: name });
      const header = await signedHeader(p, { ...pr, accepts: [alter(pr.accepts[0])] });
      const res = await create(svc.url, 'test.echo', { value: name }, { 'PAYMENT-SIGNATURE': header });
      expect(res.status).toBe(402);
      const body = await res.json();
      expect(body).toMatchObject({ code, reason });
      expect(body.error).toMatch(message);
      // Fresh requirements come with the refusal, with x402's reason code in the header.
      const again = decode(res.headers.get('payment-required'));
      expect(again.error).toBe(reason);
      expect(again.accepts[0].amount).toBe(String(PRICE));
      expect(await svc.rt.engine.listByPayer({ kind: 'x402', id: p.account.address }, 10)).toHaveLength(0);
    });
  }

  it('bad signature → 402 PAYMENT_BAD_SIGNATURE', async () => {
    const p = await newPayer(1_000_000n);
    const pr = await paymentRequired(svc.url, 'test.echo', { value: 'sig' });
    const payload = await p.client.createPaymentPayload(pr);
    const inner = payload.payload as { signature: Hex };
    // Another wallet's signature over the same authorization.
    const impostor = privateKeyToAccount(generatePrivateKey());
    const forged = { ...payload, payload: { ...payload.payload, signature: await impostor.signMessage({ message: 'not it' }) } };
    expect(forged.payload.signature).not.toBe(inner.signature);
    const header = new x402HTTPClient(p.client).encodePaymentSignatureHeader(forged)['PAYMENT-SIGNATURE']!;
    const res = await create(svc.url, 'test.echo', { value: 'sig' }, { 'PAYMENT-SIGNATURE': header });
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ code: 'PAYMENT_BAD_SIGNATURE', reason: 'invalid_exact_evm_signature', error: expect.stringMatching(/USD Coin/) });
  });

  it('insufficient balance → 402 PAYMENT_INSUFFICIENT_BALANCE (through the official client)', async () => {
    const p = await newPayer(PRICE - 1n);
    const res = await create(svc.url, 'test.echo', { value: 'poor' }, {}, p.pay);
    expect(res.status).toBe(402);
    const body = await res.json();
    expect(body).toMatchObject({ code: 'PAYMENT_INSUFFICIENT_BALANCE', reason: 'invalid_exact_evm_insufficient_balance' });
    expect(body.error).toMatch(/holds 0\.009999 USDC/);
  });

  it('counts payments of tasks not yet settled against the balance', async () => {
    const p = await newPayer(2n * PRICE - 1n);
    const first = await create(svc.url, 'test.sleep', { ms: 1_000 }, {}, p.pay);
    expect(first.status).toBe(202);
    const second = await create(svc.url, 'test.echo', { value: 'second' }, {}, p.pay);
    expect(second.status).toBe(402);
    const body = await second.json();
    expect(body).toMatchObject({ code: 'PAYMENT_INSUFFICIENT_BALANCE' });
    expect(body.error).toMatch(/0\.01 is committed to earlier tasks/);
    expect((await finalPayment(svc, (await first.json()).task_id)).status).toBe('settled');
  });

  it('a malformed header → 402 PAYMENT_MALFORMED', async () => {
    const res = await create(svc.url, 'test.echo', { value: 'x' }, { 'PAYMENT-SIGNATURE': 'not base64!' });
    expect(res.status).toBe(402);
    expect(await res.json()).toMatchObject({ code: 'PAYMENT_MALFORMED' });
  });
});

describe('numbers and signatures are read strictly', () => {
  const UINT256_MAX = (1n << 256n) - 1n;
  const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
  const nowS = () => BigInt(Math.floor(Date.now() / 1000));

  interface Change {
    authorization?: Record<string, string>;
    accepted?: Record<string, string>;
    /** Replace the signature (after re-signing). */
    signature?: (sig: Hex) => Hex;
  }

  /** The official client's payment, altered, then signed again by the payer wherever the altered numbers can be signed at all. */
  async function alteredHeader(p: Payer, value: string, change: Change): Promise<string> {
    const payload = (await p.client.createPaymentPayload(await paymentRequired(svc.url, 'test.echo', { value }))) as any;
    const authorization = { ...payload.payload.authorization, ...change.authorization };
    let signature: Hex = payload.payload.signature;
    try {
      const big = (k: string) => BigInt(authorization[k]);
      signature = await p.account.signTypedData({
        domain: { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: BASE_USDC },
        types: transferWithAuthorizationTypes,
        primaryType: 'TransferWithAuthorization',
        message: {
          from: authorization.from,
          to: authorization.to,
          value: big('value'),
          validAfter: big('validAfter'),
          validBefore: big('validBefore'),
          nonce: authorization.nonce,
        },
      });
    } catch {
      // Not a number a wallet could sign (e.g. "1e4"): keep the original signature.
    }
    if (change.signature) signature = change.signature(signature);
    const altered = { ...payload, accepted: { ...payload.accepted, ...change.accepted }, payload: { authorization, signature } };
    return new x402HTTPClient(p.client).encodePaymentSignatureHeader(altered)['PAYMENT-SIGNATURE']!;
  }

  /** The same signature with s mirrored to n − s and the recovery bit flipped: it still recovers the payer. */
  function highS(sig: Hex): Hex {
    const s = BigInt(`0x${sig.slice(66, 130)}`);
    const v = parseInt(sig.slice(130, 132), 16);
    return `${sig.slice(0, 66)}${(SECP256K1_N - s).toString(16).padStart(64, '0')}${(v === 27 ? 28 : 27).toString(16)}` as Hex;
  }

  const cases: [string, () => Change, string][] = [
    ['value with a leading zero', () => ({ authorization: { value: `0${PRICE}` } }), 'PAYMENT_MALFORMED'],
    ['value with a plus sign', () => ({ authorization: { value: `+${PRICE}` } }), 'PAYMENT_MALFORMED'],
    ['value with whitespace', () => ({ authorization: { value: ` ${PRICE}` } }), 'PAYMENT_MALFORMED'],
    ['value with an exponent', () => ({ authorization: { value: '1e4' } }), 'PAYMENT_MALFORMED'],
    ['value in hex', () => ({ authorization: { value: '0x2710' } }), 'PAYMENT_MALFORMED'],
    ['value of 2^256', () => ({ authorization: { value: String(UINT256_MAX + 1n) } }), 'PAYMENT_MALFORMED'],
    ['validAfter with a leading zero', () => ({ authorization: { validAfter: '00' } }), 'PAYMENT_MALFORMED'],
    ['validBefore negative', () => ({ authorization: { validBefore: `-${nowS() + 900n}` } }), 'PAYMENT_MALFORMED'],
    ['validBefore = 2^256 − 1', () => ({ authorization: { validBefore: String(UINT256_MAX) } }), 'PAYMENT_WINDOW_TOO_LONG'],
    ['validBefore ten years ahead', () => ({ authorization: { validBefore: String(nowS() + 10n * 365n * 86_400n) } }), 'PAYMENT_WINDOW_TOO_LONG'],
    ['validAfter = 2^256 − 1', () => ({ authorization: { validAfter: String(UINT256_MAX) } }), 'PAYMENT_NOT_YET_VALID'],
    ['nonce of 31 bytes', () => ({ authorization: { nonce: `0x${'ab'.repeat(31)}` } }), 'PAYMENT_MALFORMED'],
    ['nonce without 0x', () => ({ authorization: { nonce: 'ab'.repeat(32) } }), 'PAYMENT_MALFORMED'],
    ['accepted amount with a leading zero', () => ({ accepted: { amount: `0${PRICE}` } }), 'PAYMENT_MALFORMED'],
    ['accepted amount other than the price', () => ({ accepted: { amount: String(2n * PRICE) } }), 'PAYMENT_WRONG_AMOUNT'],
    ['high-s signature (EIP-2)', () => ({ signature: highS }), 'PAYMENT_SIGNATURE_HIGH_S'],
  ];
  for (const [name, change, code] of cases) {
    it(`${name} → 402 ${code}`, async () => {
      const p = await newPayer(1_000_000n);
      const header = await alteredHeader(p, name, change());
      const res = await create(svc.url, 'test.echo', { value: name }, { 'PAYMENT-SIGNATURE': header });
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(402);
      expect(body.code).toBe(code);
      expect(decode(res.headers.get('payment-required')).error).toBe(body.reason);
      expect(await svc.rt.engine.listByPayer({ kind: 'x402', id: p.account.address }, 10)).toHaveLength(0);
    });
  }

  it('still accepts the low-s signature the high-s case mirrors', async () => {
    const p = await newPayer(1_000_000n);
    const res = await create(svc.url, 'test.echo', { value: 'low-s' }, { 'PAYMENT-SIGNATURE': await alteredHeader(p, 'low-s', {}) });
    expect(res.status).toBe(202);
    expect((await finalPayment(svc, (await res.json()).task_id)).status).toBe('settled');
  });
});

describe('wallet sign-in (SIWX)', () => {
  /** A SIGN-IN-WITH-X header signed by `account` for a fresh challenge, with the official helpers. */
  async function signIn(account: PrivateKeyAccount): Promise<string> {
    const res = await fetch(`${svc.url}/v1/tasks`);
    expect(res.status).toBe(402);
    const pr = decode(res.headers.get('payment-required'));
    const ext = pr.extensions['sign-in-with-x'];
    const payload = await createSIWxPayload(
      { ...ext.info, chainId: ext.supportedChains[0].chainId, type: ext.supportedChains[0].type },
      account as never,
      `${svc.url}/v1/tasks`,
    );
    return encodeSIWxHeader(payload);
  }

  it('lists and reads only the tasks the signed-in wallet paid for', async () => {
    const a = await newPayer(1_000_000n, { signIn: true });
    const b = await newPayer(1_000_000n, { signIn: true });
    const aTasks: string[] = [];
    for (const value of ['a1', 'a2']) {
      const r = await create(svc.url, 'test.echo', { value }, {}, a.pay);
      expect(r.status).toBe(202);
      aTasks.push((await r.json()).task_id);
    }
    const rb = await create(svc.url, 'test.echo', { value: 'b1' }, {}, b.pay);
    expect(rb.status).toBe(202);
    const bTask = (await rb.json()).task_id;

    // The official client: GET /v1/tasks → 402 with a challenge → signs in → 200.
    const listA = await a.pay(`${svc.url}/v1/tasks`);
    expect(listA.status).toBe(200);
    const bodyA = await listA.json();
    expect(bodyA.wallet).toBe(a.account.address);
    expect(bodyA.tasks.map((t: any) => t.task_id).sort()).toEqual([...aTasks].sort());
    const listB = await (await b.pay(`${svc.url}/v1/tasks`)).json();
    expect(listB.tasks.map((t: any) => t.task_id)).toEqual([bTask]);

    // Reading by id without a poll token.
    const own = await fetch(`${svc.url}/v1/tasks/${aTasks[0]}?wait=10`, { headers: { 'SIGN-IN-WITH-X': await signIn(a.account) } });
    expect(own.status).toBe(200);
    expect(await own.json()).toMatchObject({ task_id: aTasks[0], status: 'complete', payment: { payer: a.account.address } });
    const other = await fetch(`${svc.url}/v1/tasks/${bTask}`, { headers: { 'SIGN-IN-WITH-X': await signIn(a.account) } });
    expect(other.status).toBe(403);
    expect((await other.json()).code).toBe('NOT_YOUR_TASK');
    for (const id of [...aTasks, bTask]) await finalPayment(svc, id);
  });

  it('uses each signed sign-in once, and refuses forged, foreign and stale ones', async () => {
    const p = await newPayer(1_000_000n);
    const r = await create(svc.url, 'test.echo', { value: 'siwx' }, {}, p.pay);
    const taskId = (await r.json()).task_id;
    const header = await signIn(p.account);
    expect((await fetch(`${svc.url}/v1/tasks`, { headers: { 'SIGN-IN-WITH-X': header } })).status).toBe(200);
    const replayed = await fetch(`${svc.url}/v1/tasks/${taskId}`, { headers: { 'SIGN-IN-WITH-X': header } });
    expect(replayed.status).toBe(401);
    expect(await replayed.json()).toMatchObject({ code: 'SIGN_IN_REFUSED', reason: 'invalid_siwx_nonce_reused' });

    const res = await fetch(`${svc.url}/v1/tasks`);
    const ext = decode(res.headers.get('payment-required')).extensions['sign-in-with-x'];
    const info = { ...ext.info, chainId: 'eip155:8453', type: 'eip191' as const };
    const refuse = async (payloadInfo: typeof info, reason: string, signer = p.account) => {
      const payload = await createSIWxPayload(payloadInfo, signer as never, `${svc.url}/v1/tasks`);
      const answer = await fetch(`${svc.url}/v1/tasks`, { headers: { 'SIGN-IN-WITH-X': encodeSIWxHeader(payload) } });
      expect(answer.status).toBe(401);
      expect((await answer.json()).reason).toBe(reason);
    };
    // A nonce this service never issued, and a stretched expiry.
    await refuse({ ...info, nonce: 'a'.repeat(48) }, 'invalid_siwx_nonce');
    await refuse({ ...info, expirationTime: new Date(Date.now() + 86_400_000).toISOString() }, 'invalid_siwx_nonce');
    // Another chain.
    await refuse({ ...info, chainId: 'eip155:1' }, 'invalid_siwx_chain_id');
    // A valid-looking payload whose signature is from another wallet.
    const payload = await createSIWxPayload(info, p.account as never, `${svc.url}/v1/tasks`);
    const impostor = privateKeyToAccount(generatePrivateKey());
    const forged = { ...payload, signature: await impostor.signMessage({ message: 'x' }) };
    const answer = await fetch(`${svc.url}/v1/tasks`, { headers: { 'SIGN-IN-WITH-X': encodeSIWxHeader(forged) } });
    expect(answer.status).toBe(401);
    expect((await answer.json()).reason).toBe('invalid_siwx_signature');
    await finalPayment(svc, taskId);
  });

  it('never makes task creation free', async () => {
    const p = await newPayer(1_000_000n, { signIn: true });
    const header = await signIn(p.account);
    const res = await create(svc.url, 'test.echo', { value: 'free?' }, { 'SIGN-IN-WITH-X': header });
    expect(res.status).toBe(402);
    // The official client with sign-in tries SIWX first, is asked to pay again, and pays.
    const paid = await create(svc.url, 'test.echo', { value: 'free?' }, {}, p.pay);
    expect(paid.status).toBe(202);
    const created = await paid.json();
    expect((await finalPayment(svc, created.task_id)).status).toBe('settled');
    expect(await chain.usdcBalance(p.account.address)).toBe(1_000_000n - PRICE);
  });

  it('is described in /openapi.json (valid OpenAPI 3.1) with the sign-in security scheme', async () => {
    const doc = await (await fetch(`${svc.url}/openapi.json`)).json();
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.paths['/v1/tasks'].get.security).toEqual([{ siwx: [] }, { apiKey: [] }]);
    expect(doc.paths['/v1/tasks/{task_id}'].get.security).toContainEqual({ siwx: [] });
    expect(doc.components.securitySchemes.siwx).toMatchObject({ in: 'header', name: 'SIGN-IN-WITH-X' });
  });

  it('asks for a sign-in (402 with a challenge) when GET /v1/tasks has no credential', async () => {
    const res = await fetch(`${svc.url}/v1/tasks`);
    expect(res.status).toBe(402);
    const body = await res.json();
    expect(body.code).toBe('SIGN_IN_REQUIRED');
    expect(body.accepts).toEqual([]);
    expect(body.extensions['sign-in-with-x'].info.domain).toBe(new URL(svc.url).host);
  });
});

describe('settlement that keeps failing', () => {
  let short: X402TestService;
  beforeAll(async () => {
    // A short validity window (TASK_MAX_ATTEMPTS=1, small allowances) so "until validBefore" is seconds.
    short = await startX402Service(chain, {
      env: { TASK_MAX_ATTEMPTS: '1' },
      x402: {
        timing: { queueAllowanceSeconds: 1, settleAllowanceSeconds: 8, minSettleSeconds: 4 },
        settlement: { retryBaseMs: 200, maxRetryMs: 1_000, sweepIntervalMs: 300 },
      },
    });
  });
  afterAll(async () => short?.close());

  it('is retried until validBefore, then recorded unpaid and counted in /metrics', async () => {
    const p = await newPayer(1_000_000n);
    const res = await create(short.url, 'test.sleep', { ms: 1_200 }, {}, p.pay);
    expect(res.status).toBe(202);
    const created = await res.json();
    // The payer is frozen by the token's blacklister while the task runs: every transfer reverts.
    await chain.blacklist(p.account.address);
    try {
      expect((await pollDone(short.url, created)).status).toBe('complete');
      const payment = await finalPayment(short, created.task_id);
      expect(payment.status).toBe('unpaid');
      expect(payment.settle_attempts).toBeGreaterThan(1);
      expect(payment.reason).toMatch(/before the authorization expired/);
      expect(Date.now()).toBeGreaterThan(Date.parse(payment.valid_before) - 5_000);
    } finally {
      await chain.unBlacklist(p.account.address);
    }
    expect(await chain.usdcBalance(p.account.address)).toBe(1_000_000n);
    const metrics = await (await fetch(`${short.url}/metrics`)).text();
    expect(metrics).toMatch(/agent_utility_x402_settlements_total\{outcome="unpaid"\} 1/);
    expect(metrics).toMatch(/agent_utility_x402_unpaid_atomic_total 10000/);
    expect(Number(/agent_utility_x402_settlement_retries_total (\d+)/.exec(metrics)?.[1])).toBeGreaterThan(0);
  });

  it('settles from the store sweep what no event announced (another process, or a crash)', async () => {
    await short.x402.settler.stop();
    const p = await newPayer(1_000_000n);
    const res = await create(short.url, 'test.echo', { value: 'swept' }, {}, p.pay);
    const created = await res.json();
    expect((await pollDone(short.url, created)).status).toBe('complete');
    await new Promise((r) => setTimeout(r, 300));
    expect(((await short.rt.engine.get(created.task_id))?.payment as unknown as PaymentRecord).status).toBe('pending');

    const x = short.x402;
    // A settler that hears no engine events, like one in another process.
    const fresh = new Settler(
      { store: short.rt.store, events: new EngineEvents(), log: short.rt.log, metrics: x.metrics, settings: x.settings, chain: x.chain },
      { sweepIntervalMs: 200, sweepGraceMs: 0 },
    );
    fresh.start();
    try {
      const swept = await finalPayment(short, created.task_id);
      expect(swept, JSON.stringify(swept)).toMatchObject({ status: 'settled' });
    } finally {
      await fresh.stop();
    }
    expect(await chain.usdcBalance(p.account.address)).toBe(1_000_000n - PRICE);
  });
});

describe('configuration', () => {
  async function tryStart(env: Record<string, string>) {
    const rt = await createRuntime(testConfig(env), { tools: testTools, workers: false });
    try {
      const x = await startX402(rt);
      await x?.close();
      return x;
    } finally {
      await rt.close();
    }
  }
  const payTo = '0x00000000000000000000000000000000000000A1';

  it('is off without X402_PAY_TO', async () => {
    expect(await tryStart({ X402_RPC_URL: chain.rpcUrl })).toBeUndefined();
  });

  it('refuses to start when payments could not be settled, or the RPC serves another chain', async () => {
    await expect(tryStart({ X402_PAY_TO: payTo })).rejects.toThrow(/set X402_RPC_URL and X402_SETTLER_KEY .* or X402_FACILITATOR_URL/);
    await expect(tryStart({ X402_PAY_TO: payTo, X402_NETWORK: 'eip155:84532', X402_RPC_URL: chain.rpcUrl, X402_SETTLER_KEY: SETTLER_KEY })).rejects.toThrow(
      /serves chain 8453, but X402_NETWORK is eip155:84532/,
    );
  });

  it('reads name, version and decimals of a token that is not built in', async () => {
    const token = await chain.deployToken('Test Dollar');
    const x = await tryStart({ X402_PAY_TO: payTo, X402_ASSET: token.toLowerCase(), X402_RPC_URL: chain.rpcUrl, X402_SETTLER_KEY: SETTLER_KEY });
    expect(x?.settings.token).toEqual({ address: token, name: 'Test Dollar', version: '2', decimals: 6, symbol: 'TEST' });
    await expect(tryStart({ X402_PAY_TO: payTo, X402_ASSET: payTo, X402_RPC_URL: chain.rpcUrl, X402_SETTLER_KEY: SETTLER_KEY })).rejects.toThrow(
      /could not be read as an EIP-3009 token/,
    );
  });
});

describe('through a facilitator', () => {
  it('verifies with /verify and settles with /settle of the official facilitator', async () => {
    const facilitator = await startOfficialFacilitator(chain, FACILITATOR_KEY);
    const via = await startX402Service(chain, { env: { X402_FACILITATOR_URL: facilitator.url, X402_SETTLER_KEY: '' } });
    try {
      const p = await newPayer(1_000_000n);
      const res = await create(via.url, 'test.echo', { value: 'facilitated' }, {}, p.pay);
      expect(res.status).toBe(202);
      const created = await res.json();
      expect((await pollDone(via.url, created)).status).toBe('complete');
      const payment = await finalPayment(via, created.task_id);
      expect(payment.status).toBe('settled');
      expect(facilitator.calls).toEqual({ verify: 1, settle: 1 });
      expect(await chain.usdcBalance(p.account.address)).toBe(1_000_000n - PRICE);
      expect(await chain.usdcBalance(via.payTo)).toBe(PRICE);

      // A refusal by the facilitator comes back as a 402 with its reason.
      const poor = await newPayer(1n);
      const refused = await create(via.url, 'test.echo', { value: 'poor' }, {}, poor.pay);
      expect(refused.status).toBe(402);
      expect(await refused.json()).toMatchObject({ code: 'PAYMENT_INSUFFICIENT_BALANCE' });
    } finally {
      await via.close();
      await facilitator.close();
    }
  });
});
