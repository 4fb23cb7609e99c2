// x402 pieces without a chain: the wire format as the official client writes it, requirements derived
// from tool prices and timeouts, header sizes for every tool, and wallet sign-in (SIWX) checks.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { x402Client, x402HTTPClient } from '@x402/fetch';
import { createSIWxPayload, encodeSIWxHeader } from '@x402/extensions/sign-in-with-x';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { paymentRequiredAnswer, paymentRequiredFor, requirementFor } from '../../src/billing/x402/requirements.js';
import { DEFAULT_TIMING, maxTimeoutSeconds, minWindowSeconds, type X402Settings } from '../../src/billing/x402/settings.js';
import { WalletSignIn, type SignInChallenge } from '../../src/billing/x402/siwx.js';
import { KNOWN_USDC } from '../../src/billing/x402/tokens.js';
import { hasHighS } from '../../src/billing/x402/signature-s.js';
import { decodePaymentHeader, encodeBase64Json } from '../../src/billing/x402/wire.js';
import { secondsToText, uint256Problem, UINT256_MAX } from '../../src/billing/x402/wire-numbers.js';
import type { AnyTool } from '../../src/registry/define-tool.js';
import { SqliteStore } from '../../src/db/tasks/sqlite-store.js';
import { tools } from '../../tools/index.js';
import { echoTool, testTools } from '../support/test-tools.js';

const settings: X402Settings = {
  payTo: '0x00000000000000000000000000000000000000A1',
  network: 'eip155:8453',
  chainId: 8453,
  token: KNOWN_USDC['eip155:8453']!,
  publicUrl: 'https://api.example.test',
  maxAttempts: 3,
  timing: DEFAULT_TIMING,
  mode: 'self',
};

const priced = (price: string, timeoutMs = 10_000): AnyTool => ({ ...echoTool, price, timeoutMs }) as AnyTool;

describe('requirements from the tool definition', () => {
  it('charges the price in USDC atomic units (micro-USD), exactly', () => {
    expect(requirementFor(priced('0.001'), settings).amount).toBe('1000');
    expect(requirementFor(priced('0.05'), settings).amount).toBe('50000');
    expect(requirementFor(priced('12.345678'), settings).amount).toBe('12345678');
    const eighteen = { ...settings, token: { ...settings.token, decimals: 18 } };
    expect(requirementFor(priced('0.001'), eighteen).amount).toBe('1000000000000000');
  });

  it('offers a window covering queue, every attempt with backoff, and settlement; accepts no less than run + settle time', () => {
    const req = requirementFor(priced('0.01', 30_000), settings);
    // 300 s queue + 3 × 30 s attempts + 2 × 30 s backoff + 600 s settlement.
    expect(req.maxTimeoutSeconds).toBe(300 + 90 + 60 + 600);
    expect(maxTimeoutSeconds(30_000, settings)).toBe(req.maxTimeoutSeconds);
    expect(minWindowSeconds(30_000, settings)).toBe(90 + 60 + 60);
    expect(req).toMatchObject({
      scheme: 'exact',
      network: 'eip155:8453',
      asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      payTo: settings.payTo,
      extra: { name: 'USD Coin', version: '2' },
    });
  });

  it('puts the same object in the PAYMENT-REQUIRED header and the body, which the official client reads', () => {
    const pr = paymentRequiredFor(echoTool, `${settings.publicUrl}/v1/tools/test.echo/tasks`, settings, {});
    const answer = paymentRequiredAnswer(pr);
    const read = new x402HTTPClient(new x402Client()).getPaymentRequiredResponse((n) => answer.headers[n] ?? null, answer.body);
    expect(read).toEqual(pr);
    expect(answer.body).toEqual({ x402Version: 2, resource: pr.resource, accepts: pr.accepts, extensions: pr.extensions });
    expect(answer.headers['Cache-Control']).toBe('no-store');
  });

  it('keeps 402 and payment headers small enough for HTTP servers and clients, for every tool', () => {
    const signIn = new WalletSignIn({
      secret: 's'.repeat(40),
      publicUrl: settings.publicUrl,
      network: settings.network,
      store: { useSignInNonce: async () => true },
    });
    for (const tool of [...tools, ...testTools]) {
      const url = `${settings.publicUrl}/v1/tools/${tool.name}/tasks`;
      const pr = paymentRequiredFor(tool, url, settings, { 'sign-in-with-x': signIn.challenge(url) });
      const required = paymentRequiredAnswer(pr).headers['PAYMENT-REQUIRED']!;
      // The official client echoes resource, accepted requirement and every extension into its header.
      const payment = encodeBase64Json({
        x402Version: 2,
        payload: {
          authorization: { from: settings.payTo, to: settings.payTo, value: '1', validAfter: '0', validBefore: '9999999999', nonce: `0x${'a'.repeat(64)}` },
          signature: `0x${'b'.repeat(130)}`,
        },
        extensions: pr.extensions,
        resource: pr.resource,
        accepted: pr.accepts[0],
      });
      expect(required.length, tool.name).toBeLessThan(12_000);
      expect(payment.length, tool.name).toBeLessThan(12_000);
    }
  });
});

describe('payment header decoding', () => {
  const authorization = {
    from: '0x00000000000000000000000000000000000000B2',
    to: settings.payTo,
    value: '1000',
    validAfter: '0',
    validBefore: '1900000000',
    nonce: `0x${'1'.repeat(64)}`,
  };

  it('reads the v2 PaymentPayload the official client encodes, and v1', () => {
    const accepted = requirementFor(priced('0.001'), settings);
    const v2 = new x402HTTPClient(new x402Client()).encodePaymentSignatureHeader({
      x402Version: 2,
      payload: { authorization, signature: '0xabcd' },
      accepted,
      resource: { url: 'u', description: '', mimeType: '' },
    } as never);
    expect(decodePaymentHeader(v2['PAYMENT-SIGNATURE']!)).toEqual({
      x402Version: 2,
      scheme: 'exact',
      network: 'eip155:8453',
      accepted: { asset: accepted.asset, amount: '1000', payTo: accepted.payTo },
      authorization,
      signature: '0xabcd',
    });
    const v1 = encodeBase64Json({ x402Version: 1, scheme: 'exact', network: 'base', payload: { authorization, signature: '0xabcd' } });
    expect(decodePaymentHeader(v1)).toMatchObject({ x402Version: 1, network: 'base', authorization });
  });

  it('says what is wrong with a malformed header', () => {
    expect(() => decodePaymentHeader('%%%')).toThrow(/not base64/);
    expect(() => decodePaymentHeader(Buffer.from('{').toString('base64'))).toThrow(/not base64-encoded JSON/);
    const badNonce = encodeBase64Json({
      x402Version: 2,
      accepted: { scheme: 'exact', network: 'n', asset: 'a', amount: '1', payTo: 'p' },
      payload: { authorization: { ...authorization, nonce: '0x12' }, signature: '0xab' },
    });
    expect(() => decodePaymentHeader(badNonce)).toThrow(/payload\.authorization\.nonce must be a 0x-prefixed 32-byte hex string/);
  });
});

describe('x402 numbers and signatures', () => {
  it('reads only canonical uint256 decimal strings', () => {
    for (const ok of ['0', '1', '10000', String(UINT256_MAX)]) expect(uint256Problem(ok), ok).toBeUndefined();
    for (const bad of ['', '00', '010000', '+1', '-1', ' 1', '1 ', '1e4', '1.0', '0x10', '１']) expect(uint256Problem(bad), bad).toMatch(/digits only/);
    expect(uint256Problem(String(UINT256_MAX + 1n))).toMatch(/larger than a uint256/);
    expect(uint256Problem('9'.repeat(500))).toMatch(/larger than a uint256/);
  });

  it('names the field of a non-canonical number in the payment header', () => {
    const auth = { from: settings.payTo, to: settings.payTo, value: '1000', validAfter: '0', validBefore: '1900000000', nonce: `0x${'1'.repeat(64)}` };
    const header = (over: Record<string, string>, amount = '1000') =>
      encodeBase64Json({
        x402Version: 2,
        accepted: { scheme: 'exact', network: 'n', asset: 'a', amount, payTo: 'p' },
        payload: { authorization: { ...auth, ...over }, signature: '0xab' },
      });
    expect(() => decodePaymentHeader(header({ validBefore: String(UINT256_MAX + 1n) }))).toThrow(
      /payload\.authorization\.validBefore is larger than a uint256/,
    );
    expect(() => decodePaymentHeader(header({ value: '01000' }))).toThrow(/payload\.authorization\.value must be a decimal integer string/);
    expect(() => decodePaymentHeader(header({}, '1e3'))).toThrow(/accepted\.amount must be a decimal integer string/);
    expect(decodePaymentHeader(header({ validBefore: String(UINT256_MAX) })).authorization.validBefore).toBe(String(UINT256_MAX));
  });

  it('writes times past year 9999 as seconds instead of throwing', () => {
    expect(secondsToText(0n)).toBe('1970-01-01T00:00:00.000Z');
    expect(secondsToText(UINT256_MAX)).toMatch(/^\d+ \(Unix seconds, past year 9999\)$/);
  });

  it('tells high-s signatures (EIP-2) from low-s ones', async () => {
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const sig = await privateKeyToAccount(generatePrivateKey()).signMessage({ message: 'x' });
    expect(hasHighS(sig)).toBe(false);
    const mirrored = `${sig.slice(0, 66)}${(n - BigInt(`0x${sig.slice(66, 130)}`)).toString(16).padStart(64, '0')}${sig.slice(130)}` as `0x${string}`;
    expect(hasHighS(mirrored)).toBe(true);
    // Not an (r, s, v) triple: an ERC-1271 wallet's signature is left to the chain.
    expect(hasHighS(`0x${'ff'.repeat(100)}`)).toBe(false);
  });
});

describe('wallet sign-in (SIWX)', () => {
  let store: SqliteStore;
  let signIn: WalletSignIn;
  const account = privateKeyToAccount(generatePrivateKey());
  const url = `${settings.publicUrl}/v1/tasks`;

  beforeAll(async () => {
    store = new SqliteStore(path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'au-siwx-')), 'db.sqlite'));
    await store.migrate();
    signIn = new WalletSignIn({ secret: 'k'.repeat(40), publicUrl: settings.publicUrl, network: settings.network, store });
  });
  afterAll(async () => store?.close());

  async function signed(challenge: SignInChallenge, over: Record<string, unknown> = {}, requestUrl = url): Promise<string> {
    const payload = await createSIWxPayload({ ...challenge.info, chainId: 'eip155:8453', type: 'eip191', ...over } as never, account as never, requestUrl);
    return encodeSIWxHeader(payload);
  }

  it('accepts a challenge signed with the official helper, once', async () => {
    const header = await signed(signIn.challenge(url));
    await expect(signIn.verify(header)).resolves.toBe(account.address);
    await expect(signIn.verify(header)).rejects.toMatchObject({ status: 401, code: 'SIGN_IN_REFUSED', extra: { reason: 'invalid_siwx_nonce_reused' } });
  });

  it('refuses an expired challenge, and one issued in the future', async () => {
    const old = signIn.challenge(url, Date.now() - 10 * 60_000);
    await expect(signIn.verify(await signed(old))).rejects.toMatchObject({ extra: { reason: 'invalid_siwx_expired' } });
    const future = signIn.challenge(url, Date.now() + 10 * 60_000);
    await expect(signIn.verify(await signed(future))).rejects.toMatchObject({ extra: { reason: 'invalid_siwx_issued_at_in_future' } });
  });

  it('refuses another domain, and a challenge issued by another secret', async () => {
    const elsewhere = new WalletSignIn({ secret: 'k'.repeat(40), publicUrl: 'https://evil.example.test', network: settings.network, store });
    const foreign = elsewhere.challenge('https://evil.example.test/v1/tasks');
    await expect(signIn.verify(await signed(foreign, {}, 'https://evil.example.test/v1/tasks'))).rejects.toMatchObject({
      extra: { reason: 'invalid_siwx_domain_mismatch' },
    });
    const otherSecret = new WalletSignIn({ secret: 'z'.repeat(40), publicUrl: settings.publicUrl, network: settings.network, store });
    await expect(signIn.verify(await signed(otherSecret.challenge(url)))).rejects.toMatchObject({ extra: { reason: 'invalid_siwx_nonce' } });
  });

  it('refuses what is not a signed sign-in', async () => {
    await expect(signIn.verify('!!')).rejects.toMatchObject({ extra: { reason: 'invalid_siwx_payload' } });
    await expect(signIn.verify(encodeBase64Json({ domain: 'x' }))).rejects.toMatchObject({ extra: { reason: 'invalid_siwx_payload' } });
  });
});
