// Prepaid API keys: "sk_live_" + 32 random bytes. Only a SHA-256 hash is stored (the key has 256 bits
// of entropy, so a fast hash is safe and keeps authentication a single indexed lookup).
import { createHash, randomBytes } from 'node:crypto';
import { newId } from '../ids.js';
import type { ApiKeyRow, TaskStore } from '../store/port.js';

export const API_KEY_PREFIX = 'sk_live_';

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function looksLikeApiKey(token: string): boolean {
  return /^sk_(live|test)_[A-Za-z0-9_-]{20,}$/.test(token);
}

export async function createApiKey(
  store: TaskStore,
  opts: { creditsMicros: number; label?: string | null; now?: number },
): Promise<{ key: string; row: ApiKeyRow }> {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const row = await store.createKey({
    id: newId('key', 6),
    hash: hashApiKey(key),
    // Shown in listings so an operator can tell keys apart without the secret part.
    prefix: key.slice(0, API_KEY_PREFIX.length + 6),
    label: opts.label ?? null,
    balanceMicros: opts.creditsMicros,
    now: opts.now ?? Date.now(),
  });
  return { key, row };
}

export async function findApiKey(store: TaskStore, key: string): Promise<ApiKeyRow | null> {
  if (!looksLikeApiKey(key)) return null;
  return store.findKeyByHash(hashApiKey(key));
}
