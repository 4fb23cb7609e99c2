// The EIP-712 signature check of an x402 payment (an externally owned account's 65-byte signature).
// viem's verifyTypedData recovers the signer's public key from every signature: ECDSA recovery in
// JavaScript, most of the CPU an x402 payment costs the API process. A payer signs many payments with one
// key, so the key recovered once is kept per address (a bounded, least recently used set), and a later
// signature from that address is checked against it with the ECDSA verification equation, on a
// multiplication table built for that key: R = (h/s)·G + (r/s)·Q must be the point recovery starts from
// (x = r, y of the parity v names). That holds exactly when recovery with (r, s, v) returns Q, so the
// answer is viem's; a signature that does not hold against the kept key (another signer, a wrong v, a
// tampered message) takes viem's path, whose answer stands.
import {
  hashTypedData,
  invert,
  isAddressEqual,
  mod,
  publicKeyToAddress,
  recoverPublicKey,
  secp256k1,
  size,
  type Address,
  type Hex,
  type TypedDataDomain,
} from './viem.js';

type Point = InstanceType<typeof secp256k1.ProjectivePoint>;

export interface TypedSignature {
  address: Address;
  domain: TypedDataDomain;
  types: Record<string, readonly { name: string; type: string }[]>;
  primaryType: string;
  message: Record<string, unknown>;
  signature: Hex;
}

const N = secp256k1.CURVE.n;
const G = secp256k1.ProjectivePoint.BASE;
/**
 * Window of a kept key's table (noble's wNAF): 1,376 points, ~250 kB, built at the key's first check
 * (a payer who pays once never builds one). A check then costs about a third of a recovery (measured in
 * one loop: 8-bit windows are faster still but take ~800 kB a key).
 */
const WINDOW = 6;

export class TypedSignatureChecker {
  /** Recovered keys by address, least recently used first. */
  private readonly keys = new Map<Address, Point>();
  /** Checks answered against a kept key (for tests and metrics). */
  fastChecks = 0;

  constructor(private readonly capacity = 32) {}

  /** Whether `signature` is `address`'s over the typed data; throws where viem's verifyTypedData throws. */
  async verify(p: TypedSignature): Promise<boolean> {
    // Same hash (and the same refusal of malformed typed data) as viem's verifyTypedData.
    const hash = hashTypedData({ domain: p.domain, types: p.types, primaryType: p.primaryType, message: p.message } as Parameters<typeof hashTypedData>[0]);
    const kept = this.keys.get(p.address);
    if (kept && size(p.signature) === 65 && signedBy(kept, hash, p.signature)) {
      this.keys.delete(p.address);
      this.keys.set(p.address, kept);
      this.fastChecks++;
      return true;
    }
    const publicKey = await recoverPublicKey({ hash, signature: p.signature });
    if (!isAddressEqual(publicKeyToAddress(publicKey), p.address)) return false;
    if (!kept) this.keep(p.address, publicKey);
    return true;
  }

  private keep(address: Address, publicKey: Hex): void {
    const point = secp256k1.ProjectivePoint.fromHex(publicKey.slice(2));
    // The table is built by the first multiply() that uses it.
    point._setWindowSize(WINDOW);
    this.keys.set(address, point);
    if (this.keys.size > this.capacity) this.keys.delete(this.keys.keys().next().value as Address);
  }
}

/**
 * Whether recovering the public key from the 65-byte (r, s, v) `signature` over `hash` gives `key`.
 * Recovery computes Q = r⁻¹(s·R − h·G), R the curve point with x = r and y of v's parity; Q = key exactly
 * when R = s⁻¹h·G + s⁻¹r·key, which is computed here with both points' tables instead of R's square root
 * and an untabled multiplication (noble's multiply(); its multiplyUnsafe() gives wrong points with a
 * table in @noble/curves 1.9.1). Out-of-range r or s, a v recovery does not accept, or a zero scalar
 * answer false (the caller then recovers, and that answer stands).
 */
export function signedBy(key: Point, hash: Hex, signature: Hex): boolean {
  if (!/^0x[0-9a-fA-F]{130}$/.test(signature)) return false;
  const r = BigInt(`0x${signature.slice(2, 66)}`);
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  const v = Number.parseInt(signature.slice(130, 132), 16);
  const parity = v === 0 || v === 27 ? 0n : v === 1 || v === 28 ? 1n : undefined;
  if (parity === undefined || r < 1n || r >= N || s < 1n || s >= N) return false;
  const sInv = invert(s, N);
  const u1 = mod(mod(BigInt(hash), N) * sInv, N);
  if (u1 === 0n) return false;
  const R = G.multiply(u1).add(key.multiply(mod(r * sInv, N)));
  if (R.equals(secp256k1.ProjectivePoint.ZERO)) return false;
  const { x, y } = R.toAffine();
  return x === r && (y & 1n) === parity;
}

/** The checker every payment verification in this process shares (the keys are public; any verifier may reuse them). */
export const typedSignatures = new TypedSignatureChecker();
