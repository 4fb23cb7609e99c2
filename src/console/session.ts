// Console credentials, all derived from ADMIN_TOKEN so that any API node (and the `admin login` command)
// can mint and check them without shared state: a signed session cookie, a CSRF token bound to the
// session, and one-time sign-in links. Changing ADMIN_TOKEN invalidates every session and link.
// A link is single-use through the store's sign-in nonce table (see useOneTimeLink in auth-routes.ts).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SESSION_COOKIE = 'au_console';
export const SESSION_TTL_MS = 12 * 60 * 60_000;
/** Shorter than the time the store keeps used sign-in nonces (7 minutes), so a used link cannot come back. */
export const LINK_TTL_MS = 5 * 60_000;

export interface Session {
  id: string;
  expiresAt: number;
}

export class ConsoleSecrets {
  private readonly key: Buffer;
  private readonly token: Buffer;

  constructor(adminToken: string) {
    this.token = Buffer.from(adminToken);
    this.key = createHmac('sha256', adminToken).update('agent-utility console v1').digest();
  }

  private mac(purpose: string, value: string): string {
    return createHmac('sha256', this.key).update(`${purpose}\n${value}`).digest('base64url');
  }

  /** Constant-time comparison with ADMIN_TOKEN. */
  tokenMatches(candidate: string): boolean {
    const given = Buffer.from(candidate);
    // Hash both so the comparison does not leak the token's length.
    const a = createHmac('sha256', this.key).update(given).digest();
    const b = createHmac('sha256', this.key).update(this.token).digest();
    return timingSafeEqual(a, b);
  }

  newSession(now: number): { cookie: string; session: Session } {
    const session = { id: randomBytes(18).toString('base64url'), expiresAt: now + SESSION_TTL_MS };
    const body = `${session.expiresAt}.${session.id}`;
    return { cookie: `${body}.${this.mac('session', body)}`, session };
  }

  readSession(cookie: string | undefined, now: number): Session | null {
    if (!cookie) return null;
    const parts = cookie.split('.');
    if (parts.length !== 3) return null;
    const [exp, id, mac] = parts as [string, string, string];
    if (!equalStrings(mac, this.mac('session', `${exp}.${id}`))) return null;
    const expiresAt = Number(exp);
    if (!Number.isSafeInteger(expiresAt) || expiresAt <= now) return null;
    return { id, expiresAt };
  }

  csrfToken(session: Session): string {
    return this.mac('csrf', session.id);
  }

  csrfMatches(session: Session, candidate: string | undefined): boolean {
    return candidate !== undefined && equalStrings(candidate, this.csrfToken(session));
  }

  /** A one-time sign-in link token: random nonce and expiry, signed. */
  newLinkToken(now: number): string {
    const body = `${now + LINK_TTL_MS}.${randomBytes(18).toString('base64url')}`;
    return `${body}.${this.mac('link', body)}`;
  }

  /** The link's nonce when the signature holds and it has not expired (single use is the caller's job). */
  readLinkToken(token: string, now: number): { nonce: string } | null {
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const [exp, nonce, mac] = parts as [string, string, string];
    if (!equalStrings(mac, this.mac('link', `${exp}.${nonce}`))) return null;
    const expiresAt = Number(exp);
    if (!Number.isSafeInteger(expiresAt) || expiresAt <= now) return null;
    return { nonce };
  }
}

function equalStrings(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
