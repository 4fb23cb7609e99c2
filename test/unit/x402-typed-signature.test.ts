// The EIP-712 check of x402 payments answers exactly as viem's verifyTypedData, also when it checks a
// payer's later signatures against the key kept from an earlier one (typed-signature.ts).
import { describe, expect, it } from 'vitest';
import { verifyTypedData, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { transferWithAuthorizationTypes } from '../../src/billing/x402/token-abi.js';
import { TypedSignatureChecker, type TypedSignature } from '../../src/billing/x402/typed-signature.js';

const domain = { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' } as const;
const payTo = '0x00000000000000000000000000000000000000A1';

async function signed(account = privateKeyToAccount(generatePrivateKey()), nonce = 1) {
  const message = {
    from: account.address,
    to: payTo,
    value: 1000n,
    validAfter: 0n,
    validBefore: 2_000_000_000n,
    nonce: `0x${nonce.toString(16).padStart(64, '0')}` as Hex,
  } as const;
  const signature = await account.signTypedData({ domain, types: transferWithAuthorizationTypes, primaryType: 'TransferWithAuthorization', message });
  const p: TypedSignature = {
    address: account.address,
    domain,
    types: transferWithAuthorizationTypes,
    primaryType: 'TransferWithAuthorization',
    message,
    signature,
  };
  return { account, p };
}

/** viem's answer, as verify.ts had it (a throw is a refusal). */
const viemSays = (p: TypedSignature) => verifyTypedData(p as Parameters<typeof verifyTypedData>[0]).catch(() => false);
const checkerSays = (c: TypedSignatureChecker, p: TypedSignature) => c.verify(p).catch(() => false);

/** The signature with its last byte (v) set to `v`. */
const withV = (sig: Hex, v: number): Hex => `${sig.slice(0, 130)}${v.toString(16).padStart(2, '0')}` as Hex;

describe('x402 typed-signature check', () => {
  it("checks a payer's later signatures against the key kept from the first, and accepts them", async () => {
    const c = new TypedSignatureChecker();
    const first = await signed();
    expect(await c.verify(first.p)).toBe(true);
    expect(c.fastChecks).toBe(0);
    for (let n = 2; n < 6; n++) {
      const later = await signed(first.account, n);
      expect(await c.verify(later.p)).toBe(true);
    }
    expect(c.fastChecks).toBe(4);
  });

  it('answers as viem does for forged, altered and malformed signatures once the key is kept', async () => {
    const c = new TypedSignatureChecker();
    const { account, p } = await signed();
    expect(await c.verify(p)).toBe(true);
    const later = (await signed(account, 7)).p;
    const impostor = (await signed(privateKeyToAccount(generatePrivateKey()), 7)).p;
    const v = Number.parseInt(later.signature.slice(130), 16);
    const cases: TypedSignature[] = [
      later,
      // Another key's signature over the same authorization, claimed as this payer's.
      { ...later, signature: impostor.signature },
      // The right (r, s) with the other parity (27 ↔ 28, and as 0/1): recovery gives another key.
      { ...later, signature: withV(later.signature, v === 27 ? 28 : 27) },
      { ...later, signature: withV(later.signature, v === 27 ? 1 : 0) },
      { ...later, signature: withV(later.signature, v - 27) },
      // A v recovery refuses.
      { ...later, signature: withV(later.signature, 29) },
      // The message changed after signing.
      { ...later, message: { ...later.message, value: 1001n } },
      // r or s out of range, s = 0, not hex.
      { ...later, signature: `0x${'f'.repeat(128)}1b` as Hex },
      { ...later, signature: `${later.signature.slice(0, 66)}${'0'.repeat(64)}1b` as Hex },
      { ...later, signature: `0x${'zz'.repeat(64)}1b` as Hex },
      // Too short to be (r, s, v).
      { ...later, signature: later.signature.slice(0, 130) as Hex },
    ];
    const answers = [];
    for (const x of cases) {
      const want = await viemSays(x);
      expect(await checkerSays(c, x)).toBe(want);
      answers.push(want);
    }
    expect(answers).toEqual([true, false, false, false, true, false, false, false, false, false, false]);
  });

  it('keeps at most `capacity` keys, dropping the least recently used', async () => {
    const c = new TypedSignatureChecker(2);
    const a = await signed();
    const b = await signed();
    const d = await signed();
    for (const x of [a, b]) await c.verify(x.p);
    await c.verify((await signed(a.account, 2)).p); // a is now the most recently used
    expect(c.fastChecks).toBe(1);
    await c.verify(d.p); // drops b
    await c.verify((await signed(a.account, 3)).p);
    await c.verify((await signed(b.account, 3)).p);
    expect(c.fastChecks).toBe(2);
  });
});
