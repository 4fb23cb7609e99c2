// Prepaid API keys of the task service: "sk_live_" + 256 random bits, stored hashed (auth/api-key.ts).
import { generateApiKey, hashApiKey } from '../auth/api-key.js';
import { newId } from '../ids.js';
import type { ApiKeyRow, TaskStore } from '../store/port.js';

export const API_KEY_PREFIX = 'sk_live_';

export function looksLikeApiKey(token: string): boolean {
  return /^sk_(live|test)_[A-Za-z0-9_-]{20,}$/.test(token);
}

export async function createApiKey(
  store: TaskStore,
  opts: { creditsMicros: number; label?: string | null; now?: number },
): Promise<{ key: string; row: ApiKeyRow }> {
  const { key, hash, prefix } = generateApiKey(API_KEY_PREFIX);
  const row = await store.createKey({
    id: newId('key', 6),
    hash,
    prefix,
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
