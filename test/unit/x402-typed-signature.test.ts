// The EIP-712 check of x402 payments answers exactly as viem's verifyTypedData, also when it checks a
// payer's later signatures against the key kept from an earlier one (typed-signature.ts).
import { describe, expect, it } from 'vitest';
import { hashTypedData, toHex, verifyTypedData, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { transferWithAuthorizationTypes } from '../../src/billing/x402/token-abi.js';
import { transferAuthorizationHash } from '../../src/billing/x402/transfer-hash.js';
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

  it('answers well-formed signatures (right or wrong) by the WebAssembly recovery, not viem, with or without a kept key', async () => {
    const { account, p } = await signed();
    const later = (await signed(account, 8)).p;
    const impostor = (await signed(undefined, 8)).p;
    const v = Number.parseInt(later.signature.slice(130), 16);
    const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const highS =
      `${later.signature.slice(0, 66)}${(N - BigInt(`0x${later.signature.slice(66, 130)}`)).toString(16).padStart(64, '0')}${v === 27 ? '1c' : '1b'}` as Hex;
    // (A tampered r may be no point's x, which the WASM recovery leaves to viem: s instead.)
    const tamperedS =
      `${later.signature.slice(0, 66)}${(BigInt(`0x${later.signature.slice(66, 130)}`) ^ 2n).toString(16).padStart(64, '0')}${later.signature.slice(130)}` as Hex;
    for (const kept of [false, true]) {
      const c = new TypedSignatureChecker();
      if (kept) expect(await c.verify(p)).toBe(true);
      const cases: [TypedSignature, boolean][] = [
        [later, true],
        [{ ...later, signature: impostor.signature }, false],
        [{ ...later, signature: withV(later.signature, v === 27 ? 28 : 27) }, false],
        [{ ...later, signature: tamperedS }, false],
        [{ ...later, message: { ...later.message, nonce: `0x${'9'.repeat(64)}` } }, false],
        // EIP-2's high s with the other parity recovers the same key (verify.ts refuses it before this check).
        [{ ...later, signature: highS }, true],
      ];
      for (const [x, want] of cases) {
        expect(await viemSays(x)).toBe(want);
        expect(await checkerSays(c, x)).toBe(want);
      }
      expect(c.viemChecks).toBe(0);
    }
  });

  it("hashes an EIP-3009 authorization as viem's hashTypedData, and leaves other shapes to it", async () => {
    const hex32 = () => toHex(crypto.getRandomValues(new Uint8Array(32)));
    for (let i = 0; i < 200; i++) {
      const { p } = await signed(privateKeyToAccount(generatePrivateKey()), i);
      const big = (BigInt(hex32()) >> BigInt(i)) as bigint;
      const message = {
        ...p.message,
        value: big,
        validAfter: BigInt(i),
        validBefore: (1n << 256n) - 1n - BigInt(i),
        nonce: i % 2 ? hex32() : hex32().toUpperCase().replace('0X', '0x'),
      };
      const d = { ...domain, name: `Token ${i}`, chainId: 1 + i };
      expect(transferAuthorizationHash({ ...p, domain: d, message })).toBe(hashTypedData({ ...p, domain: d, message } as Parameters<typeof hashTypedData>[0]));
    }
    const { p } = await signed();
    const m = p.message as Record<string, unknown>;
    const lowerTo = (payTo as string).toLowerCase();
    // The payer's checksummed address with its first letter's case flipped: a wrong checksum.
    const badChecksum = p.address.replace(/(?<=^0x[0-9]*)[a-fA-F]/, (x) => (x === x.toLowerCase() ? x.toUpperCase() : x.toLowerCase()));
    expect(badChecksum).not.toBe(p.address);
    const others: Omit<TypedSignature, 'address' | 'signature'>[] = [
      { ...p, message: { ...m, value: -1n } },
      { ...p, message: { ...m, validBefore: 1n << 256n } },
      { ...p, message: { ...m, value: 1000 } },
      { ...p, message: { ...m, nonce: `0x${'1'.repeat(62)}` } },
      { ...p, message: { ...m, nonce: `0x${'z'.repeat(64)}` } },
      { ...p, message: { ...m, from: badChecksum } },
      { ...p, message: { ...m, to: 'not an address' } },
      { ...p, domain: { ...domain, chainId: 8453n } as unknown as typeof domain },
      { ...p, domain: { ...domain, salt: hex32() } },
      { ...p, domain: { ...domain, verifyingContract: '0x833589fcd6eDb6E08f4c7C32D4f71b54bdA02913' } },
      { ...p, types: { ...transferWithAuthorizationTypes, EIP712Domain: [{ name: 'name', type: 'string' }] } },
      { ...p, types: { TransferWithAuthorization: transferWithAuthorizationTypes.TransferWithAuthorization.slice(0, 5) } },
      { ...p, types: { TransferWithAuthorization: [...transferWithAuthorizationTypes.TransferWithAuthorization].reverse() } },
      { ...p, primaryType: 'EIP712Domain' },
    ];
    for (const x of others) expect(transferAuthorizationHash(x)).toBeUndefined();
    // The same types in another object (as the x402 client has them): the same hash.
    const copied = { TransferWithAuthorization: transferWithAuthorizationTypes.TransferWithAuthorization.map((f) => ({ ...f })) };
    expect(transferAuthorizationHash({ ...p, types: copied })).toBe(hashTypedData(p as Parameters<typeof hashTypedData>[0]));
    // Lower-case addresses are valid (viem accepts them unchecked): the same hash.
    expect(transferAuthorizationHash({ ...p, message: { ...m, to: lowerTo } })).toBe(
      hashTypedData({ ...p, message: { ...m, to: lowerTo } } as Parameters<typeof hashTypedData>[0]),
    );
    // And the checker answers those other shapes as viem does (a throw is a refusal).
    const c = new TypedSignatureChecker();
    for (const x of others)
      expect(await checkerSays(c, { ...x, address: p.address, signature: p.signature })).toBe(
        await viemSays({ ...x, address: p.address, signature: p.signature }),
      );
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
