// The EIP-712 signature check of an x402 payment (an externally owned account's 65-byte signature).
// viem's verifyTypedData recovers the signer's public key from every signature with ECDSA recovery in
// JavaScript (@noble/curves), most of the CPU an x402 payment cost the API process. Here the same recovery
// runs in libsecp256k1 (WebAssembly, secp256k1.ts): the same key from the same (hash, r, s, v), so the same
// answer, at about a third of the CPU. A payer signs many payments with one key, so the key last recovered
// for an address is kept (a bounded, least recently used set): a later signature that recovers to it needs
// no keccak of the key to name its address. What the WASM recovery does not take (not 0x and 130 hex digits,
// a v recovery refuses, r or s out of range, no point with x = r) goes viem's way, whose answer stands.
// The EIP-712 hash of an EIP-3009 authorization is viem's hashTypedData's, with the domain's part (the same
// for every payment) kept rather than recomputed (transfer-hash.ts): keccak was the next largest cost.
import { hashTypedData, isAddressEqual, publicKeyToAddress, recoverPublicKey, size, toHex, type Address, type Hex, type TypedDataDomain } from './viem.js';
import { addressOfPublicKey, recoverPublicKeyBytes } from './secp256k1.js';
import { transferAuthorizationHash } from './transfer-hash.js';

export interface TypedSignature {
  address: Address;
  domain: TypedDataDomain;
  types: Record<string, readonly { name: string; type: string }[]>;
  primaryType: string;
  message: Record<string, unknown>;
  signature: Hex;
}

export class TypedSignatureChecker {
  /** The public key (hex) last recovered for each address, least recently used first. */
  private readonly keys = new Map<Address, Hex>();
  /** Checks answered by a kept key (for tests and metrics). */
  fastChecks = 0;
  /** Checks that went viem's way (a signature the WASM recovery does not take), for tests. */
  viemChecks = 0;

  constructor(private readonly capacity = 32) {}

  /** Whether `signature` is `address`'s over the typed data; throws where viem's verifyTypedData throws. */
  async verify(p: TypedSignature): Promise<boolean> {
    // Same hash (and the same refusal of malformed typed data) as viem's verifyTypedData.
    const hash =
      transferAuthorizationHash(p) ??
      hashTypedData({ domain: p.domain, types: p.types, primaryType: p.primaryType, message: p.message } as Parameters<typeof hashTypedData>[0]);
    // (A library that cannot load rejects: viem's way then, too.)
    const recovered = size(p.signature) === 65 ? await recoverPublicKeyBytes(hash, p.signature).catch(() => undefined) : undefined;
    if (recovered) {
      const publicKey = toHex(recovered);
      if (this.keys.get(p.address) === publicKey) {
        this.keys.delete(p.address);
        this.keys.set(p.address, publicKey);
        this.fastChecks++;
        return true;
      }
      // Another key than the one kept (or none kept): its address decides, as in viem.
      if (!isAddressEqual(addressOfPublicKey(recovered), p.address)) return false;
      this.keep(p.address, publicKey);
      return true;
    }
    this.viemChecks++;
    const publicKey = await recoverPublicKey({ hash, signature: p.signature });
    if (!isAddressEqual(publicKeyToAddress(publicKey), p.address)) return false;
    this.keep(p.address, publicKey);
    return true;
  }

  private keep(address: Address, publicKey: Hex): void {
    this.keys.delete(address);
    this.keys.set(address, publicKey);
    if (this.keys.size > this.capacity) this.keys.delete(this.keys.keys().next().value as Address);
  }
}

/** The checker every payment verification in this process shares (the keys are public; any verifier may reuse them). */
export const typedSignatures = new TypedSignatureChecker();
