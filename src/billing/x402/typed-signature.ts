// The EIP-712 signature check of an x402 payment (an externally owned account's 65-byte signature).
// viem's verifyTypedData recovers the signer's public key from every signature with ECDSA recovery in
// JavaScript (@noble/curves), most of the CPU an x402 payment cost the API process. Here the same recovery
// runs in libsecp256k1 (WebAssembly, secp256k1.ts): the same key from the same (hash, r, s, v), so the same
// answer, at about a third of the CPU. A payer signs many payments with one key, so the key last recovered
// for an address is kept (a bounded, least recently used set): a later signature that recovers to it needs
// no keccak of the key to name its address. What the WASM recovery does not take (not 0x and 130 hex digits,
// a v recovery refuses, r or s out of range, no point with x = r) goes viem's way, whose answer stands.
// The EIP-712 hash of an EIP-3009 authorization is viem's hashTypedData's, with the domain's part (the same
// for every payment) kept rather than recomputed: keccak (JavaScript) was the next largest cost.
import {
  domainSeparator,
  getTypesForEIP712Domain,
  hashTypedData,
  hexToBytes,
  isAddress,
  isAddressEqual,
  keccak256,
  publicKeyToAddress,
  recoverPublicKey,
  size,
  toHex,
  validateTypedData,
  type Address,
  type Hex,
  type TypedDataDomain,
} from './viem.js';
import { addressOfPublicKey, recoverPublicKeyBytes } from './secp256k1.js';
import { transferWithAuthorizationTypes } from './token-abi.js';

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
    const recovered = size(p.signature) === 65 ? recoverPublicKeyBytes(hash, p.signature) : undefined;
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

/** keccak256 of EIP-3009's type: TransferWithAuthorization(address from,address to,uint256 value,…,bytes32 nonce). */
const TRANSFER_TYPE_HASH = hexToBytes(
  keccak256(toHex('TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)')),
);
const UINT256_LIMIT = 1n << 256n;
const BYTES32 = /^0x[0-9a-fA-F]{64}$/;
/** Domain separators by domain (a process sees one or a few: the token's). */
const separators = new Map<string, Uint8Array>();

/**
 * viem's hashTypedData of an EIP-3009 TransferWithAuthorization (the types object of token-abi.ts) whose
 * fields all have the shapes viem's validation accepts (addresses it accepts, uint256 bigints in range, a
 * 32-byte hex nonce) and whose domain is a plain one (name, version, chainId, verifyingContract, no salt):
 * keccak256(0x1901 ‖ domain separator ‖ keccak256(type hash ‖ the six fields, 32 bytes each)), the
 * separator validated and computed by viem once per domain. Undefined for anything else: viem's
 * hashTypedData then hashes (or refuses) it.
 */
export function transferAuthorizationHash(p: Omit<TypedSignature, 'address' | 'signature'>): Hex | undefined {
  if (p.types !== transferWithAuthorizationTypes || p.primaryType !== 'TransferWithAuthorization') return undefined;
  const separator = separatorOf(p.domain);
  if (!separator) return undefined;
  const { from, to, value, validAfter, validBefore, nonce } = p.message;
  if (typeof from !== 'string' || typeof to !== 'string' || !isAddress(from) || !isAddress(to)) return undefined;
  if (typeof nonce !== 'string' || !BYTES32.test(nonce)) return undefined;
  const numbers = [value, validAfter, validBefore];
  if (!numbers.every((n) => typeof n === 'bigint' && n >= 0n && n < UINT256_LIMIT)) return undefined;
  const struct = new Uint8Array(7 * 32);
  struct.set(TRANSFER_TYPE_HASH, 0);
  struct.set(hexToBytes(from), 32 + 12);
  struct.set(hexToBytes(to), 64 + 12);
  numbers.forEach((n, i) => struct.set(hexToBytes(toHex(n as bigint, { size: 32 })), 96 + 32 * i));
  struct.set(hexToBytes(nonce as Hex), 192);
  const digest = new Uint8Array(2 + 32 + 32);
  digest.set([0x19, 0x01], 0);
  digest.set(separator, 2);
  digest.set(hexToBytes(keccak256(struct)), 34);
  return keccak256(digest);
}

/** The domain separator of a plain domain, validated as viem's hashTypedData validates it; undefined for another shape or one viem refuses. */
function separatorOf(domain: TypedDataDomain): Uint8Array | undefined {
  const { name, version, chainId, verifyingContract, salt, ...rest } = domain;
  if (typeof name !== 'string' || typeof version !== 'string' || typeof chainId !== 'number' || typeof verifyingContract !== 'string') return undefined;
  if (salt !== undefined || Object.keys(rest).length > 0) return undefined;
  const key = JSON.stringify([name, version, chainId, verifyingContract]);
  let separator = separators.get(key);
  if (!separator) {
    const plain = { name, version, chainId, verifyingContract };
    try {
      validateTypedData({
        domain: plain,
        types: { EIP712Domain: getTypesForEIP712Domain({ domain: plain }) },
        primaryType: 'EIP712Domain',
      } as unknown as Parameters<typeof validateTypedData>[0]);
    } catch {
      return undefined;
    }
    separator = hexToBytes(domainSeparator({ domain: plain }));
    if (separators.size >= 16) separators.clear();
    separators.set(key, separator);
  }
  return separator;
}

/** The checker every payment verification in this process shares (the keys are public; any verifier may reuse them). */
export const typedSignatures = new TypedSignatureChecker();
