// Standard Webhooks signatures (https://www.standardwebhooks.com): HMAC-SHA256 over
// "<webhook-id>.<webhook-timestamp>.<body>" keyed with the base64 bytes after "whsec_", sent as
// "v1,<base64 digest>". Several signatures are separated by spaces (the spec's way to rotate a secret:
// receivers accept the message when any one matches).
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new secret: 32 random bytes, base64, with the spec's prefix. */
export function newWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/** The webhook-signature header for one message signed with each of `secrets` (current first). */
export function signatureHeader(secrets: readonly string[], id: string, timestampSeconds: number, body: string): string {
  return secrets.map((s) => `v1,${createHmac('sha256', keyOf(s)).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`).join(' ');
}
