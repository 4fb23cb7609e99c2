// Reads the caller's credential from Authorization (or X-API-Key): an API key, a poll token, or none.
import type { IncomingMessage } from 'node:http';
import { findApiKey, looksLikeApiKey } from '../billing/api-keys.js';
import { Unauthorized } from '../errors.js';
import type { ApiKeyRow, TaskStore } from '../store/port.js';
import type { ApiKeyCache } from './api-key-cache.js';
import { POLL_TOKEN_PREFIX } from '../auth/poll-token.js';
import { headerValue } from './headers.js';

export type Credential = { kind: 'none' } | { kind: 'key'; key: ApiKeyRow } | { kind: 'poll-token'; token: string } | { kind: 'bearer'; token: string };

/** What is read from a request: its headers (an Express request, or a plain Node one on the fast lane). */
type WithHeaders = Pick<IncomingMessage, 'headers'>;

export function bearerToken(req: WithHeaders): string | undefined {
  const header = req.headers.authorization;
  if (header) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw new Unauthorized('Authorization must be "Bearer <token>".', 'INVALID_AUTHORIZATION');
    return m[1];
  }
  return headerValue(req.headers, 'x-api-key')?.trim() || undefined;
}

/**
 * Resolves the credential; an unknown or revoked key is 401 here. With `keys`, the key row may be up to a
 * second old: only for routes that decide nothing from its balance (task creation charges in its write).
 */
export async function readCredential(req: WithHeaders, store: TaskStore, keys?: ApiKeyCache): Promise<Credential> {
  const token = bearerToken(req);
  if (!token) return { kind: 'none' };
  if (token.startsWith(POLL_TOKEN_PREFIX)) return { kind: 'poll-token', token };
  if (token.startsWith('sk_')) {
    const key = looksLikeApiKey(token) ? await (keys ? keys.find(token) : findApiKey(store, token)) : null;
    if (!key) throw new Unauthorized('Unknown API key.', 'INVALID_API_KEY');
    if (key.revokedAt !== null) throw new Unauthorized('This API key was revoked.', 'API_KEY_REVOKED');
    return { kind: 'key', key };
  }
  return { kind: 'bearer', token };
}
