// Identifiers: a prefix, then a time-ordered, URL-safe random part (sorts by creation time in indexes).
import { randomBytes, randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lower case

/** Crockford base32 (lower case, no padding) of the bytes. */
export function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

// Random bytes for ids drawn from one pooled buffer: a call into the CSPRNG per id cost 4% of a task
// creation's CPU. The bytes are the same CSPRNG's, each handed out once.
const POOL_SIZE = 4096;
const pool = Buffer.allocUnsafe(POOL_SIZE);
let poolOffset = POOL_SIZE;

function pooledRandomBytes(count: number): Uint8Array {
  if (count > POOL_SIZE) return randomBytes(count);
  if (poolOffset + count > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = pool.subarray(poolOffset, poolOffset + count);
  poolOffset += count;
  return bytes;
}

export function newId(prefix: string, randomBytesCount = 10): string {
  const time = Date.now().toString(32).padStart(9, '0');
  return `${prefix}_${time}${base32(pooledRandomBytes(randomBytesCount))}`;
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
