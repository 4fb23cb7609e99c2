// viem's hashTypedData for the one typed message x402 payments sign, EIP-3009's TransferWithAuthorization,
// with the domain separator (the token's, the same for every payment) computed once per domain by viem and
// kept: of the ~10 keccak permutations viem's hashTypedData runs (type hashes, domain, name and version),
// 3 remain. Used to check payments (typed-signature.ts) and by the signer of secp256k1.ts.
import {
  domainSeparator,
  getTypesForEIP712Domain,
  hexToBytes,
  isAddress,
  keccak256,
  toHex,
  validateTypedData,
  type Hex,
  type TypedDataDomain,
} from './viem.js';
import { transferWithAuthorizationTypes } from './token-abi.js';

/** Typed data as viem's hashTypedData takes it. */
export interface TypedData {
  domain: TypedDataDomain;
  types: Record<string, readonly { name: string; type: string }[]>;
  primaryType: string;
  message: Record<string, unknown>;
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
 * viem's hashTypedData of an EIP-3009 TransferWithAuthorization (types: that one struct, as token-abi.ts has it) whose
 * fields all have the shapes viem's validation accepts (addresses it accepts, uint256 bigints in range, a
 * 32-byte hex nonce) and whose domain is a plain one (name, version, chainId, verifyingContract, no salt):
 * keccak256(0x1901 ‖ domain separator ‖ keccak256(type hash ‖ the six fields, 32 bytes each)), the
 * separator validated and computed by viem once per domain. Undefined for anything else: viem's
 * hashTypedData then hashes (or refuses) it.
 */
export function transferAuthorizationHash(p: TypedData): Hex | undefined {
  if (p.primaryType !== 'TransferWithAuthorization' || !isTransferTypes(p.types)) return undefined;
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

/** Whether `types` is EIP-3009's TransferWithAuthorization and nothing else (no EIP712Domain of its own, no other struct). */
function isTransferTypes(types: TypedData['types']): boolean {
  if (types === transferWithAuthorizationTypes) return true;
  const keys = Object.keys(types);
  const fields = types.TransferWithAuthorization;
  const want = transferWithAuthorizationTypes.TransferWithAuthorization;
  return (
    keys.length === 1 &&
    fields !== undefined &&
    fields.length === want.length &&
    want.every((f, i) => fields[i]?.name === f.name && fields[i]?.type === f.type && Object.keys(fields[i]!).length === 2)
  );
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
