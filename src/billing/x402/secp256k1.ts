// secp256k1 for the x402 money path in WebAssembly: tiny-secp256k1 (bitcoinjs, MIT) is libsecp256k1 compiled
// to WASM and shipped in the package (no native build). viem signs and recovers with @noble/curves in
// JavaScript, and in the soak those two were most of what x402 costs the API process: recovering the payer's
// key from each payment's signature, and signing each settlement transaction. Measured on this 2-core
// machine in one loop (bench/lib/x402-cpu.mjs): a recovery ~3× and a signature ~4× less CPU than viem's.
// Answers are viem's: recovery is the same arithmetic (Q = r⁻¹(s·R − h·G), R the point with x = r and the
// y parity v names), and signing is RFC 6979's deterministic nonce with s made low, which is what viem asks
// of noble (lowS, no extra entropy), so the signature bytes are identical (tested on many keys and hashes).
import type * as TinySecp256k1 from 'tiny-secp256k1';
import { transferAuthorizationHash, type TypedData } from './transfer-hash.js';
import {
  hashMessage,
  hashTypedData,
  hexToBytes,
  keccak256,
  parseSignature,
  privateKeyToAccount,
  serializeSignature,
  serializeTransaction,
  toHex,
  type Hex,
  type PrivateKeyAccount,
  type Signature,
} from './viem.js';

/**
 * The library, loaded at the first use: its import compiles 1.2 MB of WebAssembly (tens of ms), which a
 * process that never sees an x402 payment (x402 off, a worker, the MCP front door) should not pay at start.
 */
let library: Promise<typeof TinySecp256k1> | undefined;
const secp256k1 = (): Promise<typeof TinySecp256k1> => (library ??= import('tiny-secp256k1'));

/**
 * Loads the library now (x402 startup), so the first payment does not wait for it. Where it cannot load
 * (a broken install), checks and signatures are viem's, as before; this rejects so startup can say so.
 */
export async function loadSecp256k1(): Promise<void> {
  await secp256k1();
}

/**
 * The public key (uncompressed, 65 bytes) whose signature `signature` (65 bytes as 0x + 130 hex digits:
 * r, s, v with v 0, 1, 27 or 28) is over `hash` (32 bytes), or undefined where recovery fails: r or s
 * zero or not below the group order, no curve point with x = r, or another v. viem's recoverPublicKey
 * throws in exactly those cases (noble refuses the same (r, s) and points, and toRecoveryBit the same v).
 */
export async function recoverPublicKeyBytes(hash: Hex, signature: Hex): Promise<Uint8Array | undefined> {
  if (!/^0x[0-9a-fA-F]{64}$/.test(hash) || !/^0x[0-9a-fA-F]{130}$/.test(signature)) return undefined;
  const v = Number.parseInt(signature.slice(130, 132), 16);
  const recoveryId = v === 0 || v === 27 ? 0 : v === 1 || v === 28 ? 1 : undefined;
  if (recoveryId === undefined) return undefined;
  const ecc = await secp256k1();
  try {
    // tiny-secp256k1 throws for r or s out of range and for an r that is no point's x.
    return ecc.recover(hexToBytes(hash), hexToBytes(`0x${signature.slice(2, 130)}`), recoveryId, false) ?? undefined;
  } catch {
    return undefined;
  }
}

/** The address of an uncompressed public key (the last 20 bytes of keccak256 of its x and y), lower case. */
export function addressOfPublicKey(publicKey: Uint8Array): Hex {
  return `0x${keccak256(publicKey.subarray(1)).slice(-40)}`;
}

/**
 * viem's sign() of a 32-byte hash ({ r, s, v, yParity }), by libsecp256k1: RFC 6979 nonce, low s, the
 * recovery id as viem gives it (v 27 or 28). viem's optional process-wide extra entropy (setSignEntropy) is
 * not used by this project, so its signatures are the deterministic ones these are.
 */
export async function signHash(hash: Hex, privateKey: Uint8Array): Promise<Signature> {
  const { signature, recoveryId } = (await secp256k1()).signRecoverable(hexToBytes(hash), privateKey);
  return {
    r: toHex(signature.subarray(0, 32)),
    s: toHex(signature.subarray(32, 64)),
    v: recoveryId ? 28n : 27n,
    yParity: recoveryId,
  };
}

/**
 * viem's privateKeyToAccount with the signing done by libsecp256k1: sign, signMessage, signTypedData and
 * signTransaction return the same bytes as viem's account (they hash as viem does, an EIP-3009
 * authorization by transfer-hash.ts, then signHash);
 * signAuthorization (EIP-7702, unused here) stays viem's.
 */
export function fastPrivateKeyToAccount(privateKey: Hex): PrivateKeyAccount {
  const account = privateKeyToAccount(privateKey);
  const key = hexToBytes(privateKey);
  // viem's own signature where libsecp256k1 refuses (a hash that is not 32 bytes) or cannot load.
  const sign = (hash: Hex) => signHash(hash, key).catch(async () => parseSignature(await account.sign({ hash })));
  const fast: Pick<PrivateKeyAccount, 'sign' | 'signMessage' | 'signTypedData' | 'signTransaction'> = {
    sign: async ({ hash }) => serializeSignature(await sign(hash)),
    signMessage: async ({ message }) => serializeSignature(await sign(hashMessage(message))),
    signTypedData: async (typedData) =>
      serializeSignature(await sign(transferAuthorizationHash(typedData as TypedData) ?? hashTypedData(typedData as Parameters<typeof hashTypedData>[0]))),
    signTransaction: (async (transaction: Parameters<typeof serializeTransaction>[0], options?: { serializer?: typeof serializeTransaction }) => {
      const serializer = options?.serializer ?? serializeTransaction;
      // As viem: an EIP-4844 transaction is signed without its sidecars (the network wrapper).
      const signable = transaction.type === 'eip4844' ? { ...transaction, sidecars: false as const } : transaction;
      return serializer(transaction, await sign(keccak256(await serializer(signable))));
    }) as PrivateKeyAccount['signTransaction'],
  };
  return { ...account, ...fast };
}
