// HMAC-SHA256 signatures over an id and an expiry (unix seconds), for links that grant one thing until a
// time: signed file URLs, read-only batch results links. Each purpose signs with its own key derived from
// the service secret, so a signature made for one is never valid for another (nor as a poll token).
import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignatureCheck = 'valid' | 'invalid' | 'expired';

export interface ExpiringSignature {
  sign(secret: string, id: string, expiresAtSeconds: number): string;
  /** Checks the signature first (a changed expiry is 'invalid', not 'expired'), then the expiry. */
  check(secret: string, id: string, expires: string | undefined, sig: string | undefined, now?: Date): SignatureCheck;
}

/** `purpose` names the key, e.g. 'agent-utility/file-url/v1'. */
export function expiringSignature(purpose: string): ExpiringSignature {
  const keyOf = (secret: string) => createHmac('sha256', secret).update(purpose).digest();
  const sign = (secret: string, id: string, expiresAtSeconds: number) =>
    createHmac('sha256', keyOf(secret)).update(`${id}\n${expiresAtSeconds}`).digest('base64url');
  return {
    sign,
    check(secret, id, expires, sig, now = new Date()) {
      if (!expires || !sig || !/^\d{1,12}$/.test(expires)) return 'invalid';
      const expected = Buffer.from(sign(secret, id, Number(expires)));
      const given = Buffer.from(sig);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
      return Number(expires) * 1000 <= now.getTime() ? 'expired' : 'valid';
    },
  };
}
