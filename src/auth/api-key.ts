// API keys of every service here (the task service's "sk_live_…", the lead service's "lk_…"): a prefix
// naming the service, then 256 random bits. Only a SHA-256 hash is stored: with that much entropy a fast
// hash is safe and authentication stays a single indexed lookup. The display prefix (the service prefix
// and six more characters) lets an operator tell keys apart without the secret part.
import { createHash, randomBytes } from 'node:crypto';

export interface GeneratedApiKey {
  /** The secret, shown to its owner once. */
  key: string;
  hash: string;
  prefix: string;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function generateApiKey(servicePrefix: string): GeneratedApiKey {
  const key = `${servicePrefix}${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, servicePrefix.length + 6) };
}
