// libsecp256k1 (WebAssembly, src/billing/x402/secp256k1.ts) in place of viem's @noble/curves on the x402
// money path: the settler's signatures must be byte for byte viem's (RFC 6979, low s), and a recovery must
// give viem's key or fail where viem's throws.
import { describe, expect, it } from 'vitest';
import { encodeFunctionData, keccak256, recoverPublicKey, toHex, type Hex, type TransactionSerializableEIP1559 } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { fastPrivateKeyToAccount, recoverPublicKeyBytes, signHash } from '../../src/billing/x402/secp256k1.js';
import { eip3009Abi, transferWithAuthorizationTypes } from '../../src/billing/x402/token-abi.js';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const random32 = (): Hex => toHex(crypto.getRandomValues(new Uint8Array(32)));
const domain = { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' } as const;

/** A settlement transaction as ChainAccess.submitTransfer has the settler sign it. */
function transferTx(i: number): TransactionSerializableEIP1559 {
  return {
    type: 'eip1559',
    chainId: 8453,
    nonce: i,
    to: domain.verifyingContract,
    gas: 90_000n + BigInt(i),
    maxFeePerGas: 2_000_000_000n + BigInt(i),
    maxPriorityFeePerGas: 1_000_000n,
    data: encodeFunctionData({
      abi: eip3009Abi,
      functionName: 'transferWithAuthorization',
      args: [privateKeyToAccount(generatePrivateKey()).address, domain.verifyingContract, 10_000n, 0n, 2_000_000_000n, random32(), 27, random32(), random32()],
    }),
  };
}

/** viem's recovery as a value: the key, or 'throws'. */
const viemRecovers = (hash: Hex, signature: Hex) => recoverPublicKey({ hash, signature }).catch(() => 'throws');
const wasmRecovers = async (hash: Hex, signature: Hex) => {
  const key = await recoverPublicKeyBytes(hash, signature);
  return key ? toHex(key) : 'throws';
};

describe('x402 secp256k1 in WebAssembly', () => {
  it("signs hashes, transactions, typed data and messages with exactly viem's bytes, on many keys", async () => {
    for (let i = 0; i < 150; i++) {
      const key = generatePrivateKey();
      const viem = privateKeyToAccount(key);
      const fast = fastPrivateKeyToAccount(key);
      expect(fast.address).toBe(viem.address);
      const hash = random32();
      expect(await fast.sign({ hash })).toBe(await viem.sign({ hash }));
      const tx = transferTx(i);
      expect(await fast.signTransaction(tx)).toBe(await viem.signTransaction(tx));
      const typed = {
        domain,
        types: transferWithAuthorizationTypes,
        primaryType: 'TransferWithAuthorization',
        message: { from: viem.address, to: domain.verifyingContract, value: BigInt(i), validAfter: 0n, validBefore: 2_000_000_000n, nonce: random32() },
      } as const;
      expect(await fast.signTypedData(typed)).toBe(await viem.signTypedData(typed));
      expect(await fast.signMessage({ message: `sign in ${i}` })).toBe(await viem.signMessage({ message: `sign in ${i}` }));
    }
  });

  it("answers as viem's account where libsecp256k1 refuses the input (a hash that is not 32 bytes)", async () => {
    const key = generatePrivateKey();
    for (const hash of ['0x1234', toHex(new Uint8Array(33).fill(7))] as Hex[])
      expect(await fastPrivateKeyToAccount(key).sign({ hash })).toBe(await privateKeyToAccount(key).sign({ hash }));
  });

  it('signs with low s, both parities, and a signature recovers to the signer', async () => {
    const parities = new Set<number>();
    for (let i = 0; i < 64; i++) {
      const key = generatePrivateKey();
      const hash = keccak256(toHex(`payment ${i}`));
      const sig = await signHash(hash, Buffer.from(key.slice(2), 'hex'));
      expect(BigInt(sig.s) <= N / 2n).toBe(true);
      parities.add(sig.yParity!);
      const serialized = `${sig.r}${sig.s.slice(2)}${sig.v === 27n ? '1b' : '1c'}` as Hex;
      expect(await wasmRecovers(hash, serialized)).toBe(privateKeyToAccount(key).publicKey);
    }
    expect([...parities].sort()).toEqual([0, 1]);
  });

  it("recovers viem's key, or fails where viem throws: high s, other v, r or s out of range, r no point's x", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const hash = random32();
    const good = await account.sign({ hash });
    const r = good.slice(2, 66);
    const s = BigInt(`0x${good.slice(66, 130)}`);
    const v = Number.parseInt(good.slice(130), 16);
    const hex = (n: bigint) => n.toString(16).padStart(64, '0');
    const byte = (n: number) => n.toString(16).padStart(2, '0');
    const cases: Hex[] = [
      good,
      // The same point with the other s (EIP-2's high s) and the other parity: the same key for both.
      `0x${r}${hex(N - s)}${byte(v === 27 ? 28 : 27)}`,
      // Wrong parity, as 27/28 and as 0/1; parity as 0/1; v recovery does not take.
      `0x${r}${hex(s)}${byte(v === 27 ? 28 : 27)}`,
      `0x${r}${hex(s)}${byte(v === 27 ? 1 : 0)}`,
      `0x${r}${hex(s)}${byte(v - 27)}`,
      `0x${r}${hex(s)}${byte(29)}`,
      `0x${r}${hex(s)}${byte(37)}`,
      // s = 0, s = n, r = n, r = 0, r with no point (x = 5 is not on secp256k1).
      `0x${r}${hex(0n)}1b`,
      `0x${r}${hex(N)}1b`,
      `0x${hex(N)}${hex(s)}1b`,
      `0x${hex(0n)}${hex(s)}1b`,
      `0x${hex(5n)}${hex(s)}1b`,
      // A tampered r, s and hash.
      `0x${hex(BigInt(`0x${r}`) ^ 1n)}${hex(s)}${byte(v)}`,
      `0x${r}${hex(s ^ 1n)}${byte(v)}`,
    ];
    const answers = [];
    for (const sig of cases) {
      const want = await viemRecovers(hash, sig);
      expect(await wasmRecovers(hash, sig)).toBe(want);
      answers.push(want === 'throws' ? 'throws' : want === account.publicKey ? 'signer' : 'other');
    }
    expect(answers).toEqual([
      'signer',
      'signer',
      'other',
      'other',
      'signer',
      'throws',
      'throws',
      'throws',
      'throws',
      'throws',
      'throws',
      'throws',
      expect.any(String),
      'other',
    ]);
    // Another hash: another key.
    expect(await wasmRecovers(random32(), good)).not.toBe(account.publicKey);
  });
});
