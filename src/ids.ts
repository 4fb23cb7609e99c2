// Identifiers: a prefix, then a time-ordered, URL-safe random part (sorts by creation time in indexes).
import { randomBytes } from 'node:crypto';

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

export function newId(prefix: string, randomBytesCount = 10): string {
  const time = Date.now().toString(32).padStart(9, '0');
  return `${prefix}_${time}${base32(randomBytes(randomBytesCount))}`;
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
