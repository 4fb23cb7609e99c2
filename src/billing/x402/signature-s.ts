// EIP-2: of the two s values that verify an ECDSA signature, only the lower one (s ≤ n/2) is canonical.
// ecrecover accepts both, but EIP-3009 tokens (FiatToken's ECRecover) revert on the upper one, so a
// high-s payment would pass our check and then fail at settlement: it is refused up front.
import { size, sliceHex, hexToBigInt, type Hex } from './viem.js';

/** Order of the secp256k1 group, halved (EIP-2's bound on s). */
const SECP256K1_HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/** Whether a 65-byte (r, s, v) signature has s in the upper half; other lengths (ERC-1271 wallets) are not ECDSA triples. */
export function hasHighS(signature: Hex): boolean {
  if (size(signature) !== 65) return false;
  return hexToBigInt(sliceHex(signature, 32, 64)) > SECP256K1_HALF_N;
}
