// Which secrets sign a message now: the key's current one, and the previous one while its grace period
// after a rotation lasts (both signatures go out, space-separated; a receiver accepts either).
import type { KeySecrets } from '../db/webhooks/webhook-store.js';

export function signingSecrets(s: KeySecrets, now: number): string[] {
  const out = s.secret ? [s.secret] : [];
  if (s.previousSecret && s.previousUntil !== null && s.previousUntil > now) out.push(s.previousSecret);
  return out;
}
