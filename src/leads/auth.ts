// Who is calling: an API key from `Authorization: Bearer lk_…` or `X-API-Key: lk_…`. Keys are the platform's
// (auth/api-key.ts: 256 random bits, stored only as a SHA-256 hash). Operator keys (LEADS_API_KEY, or the
// internal key `serve` generates for the tools) are held in memory, also hashed, and have no quota.
import type { Request } from 'express';
import { generateApiKey, hashApiKey, type GeneratedApiKey } from '../auth/api-key.js';
import { Unauthorized } from '../errors.js';
import { randomId } from './ids.js';
import type { LeadStore } from './store.js';

export const KEY_PREFIX = 'lk_';
export const OPERATOR_ACCOUNT = 'operator';

export interface Principal {
  accountId: string;
  keyId: string;
  /** Operator keys: no quota, may read every search and request. */
  unlimited: boolean;
}

export function newApiKey(): GeneratedApiKey & { id: string } {
  return { ...generateApiKey(KEY_PREFIX), id: randomId('key', 10) };
}

export function presentedKey(req: Request): string | undefined {
  const auth = req.get('authorization');
  if (auth) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (!m) throw new Unauthorized('The Authorization header must be "Bearer <API key>".', 'INVALID_AUTHORIZATION');
    return m[1];
  }
  const alias = req.get('x-api-key')?.trim();
  return alias || undefined;
}

export class KeyAuthenticator {
  private readonly operatorHashes: Set<string>;

  constructor(
    private readonly store: LeadStore,
    operatorKeys: readonly string[],
  ) {
    this.operatorHashes = new Set(operatorKeys.map(hashApiKey));
  }

  /** The caller, or 401. */
  async authenticate(req: Request): Promise<Principal> {
    const key = presentedKey(req);
    if (!key) {
      throw new Unauthorized(
        'An API key is required: send "Authorization: Bearer <key>" (or X-API-Key). Get a free key with POST /v1/register {"email": …}.',
        'MISSING_API_KEY',
      );
    }
    const hash = hashApiKey(key);
    if (this.operatorHashes.has(hash)) return { accountId: OPERATOR_ACCOUNT, keyId: OPERATOR_ACCOUNT, unlimited: true };
    const found = await this.store.findKeyByHash(hash);
    if (!found) throw new Unauthorized('This API key is not valid.', 'INVALID_API_KEY');
    if (found.revokedAt !== null) throw new Unauthorized('This API key was revoked or rotated; use the current key or register again.', 'API_KEY_REVOKED');
    return { accountId: found.accountId, keyId: found.keyId, unlimited: false };
  }
}
