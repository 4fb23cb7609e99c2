// Identifiers: a readable prefix and 128 random bits in base32 (src/ids.ts), e.g. "req_k3…".
// Pro ids are derived from the external id instead, so re-importing a directory keeps them stable.
import { createHash, randomBytes } from 'node:crypto';
import { base32 } from '../ids.js';

export function randomId(prefix: string, bytes = 16): string {
  return `${prefix}_${base32(randomBytes(bytes))}`;
}

/** Stable id for a professional: the same external id always gives the same pro id. */
export function proIdFor(externalId: string): string {
  return `pro_${base32(createHash('sha256').update(`pro:${externalId}`).digest()).slice(0, 20)}`;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A secret token: prefix plus 256 random bits, base64url. */
export function randomSecret(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}
