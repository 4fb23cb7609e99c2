// Poll tokens: "pt_" + an HS256 JWT (RFC 7519) naming one task, valid 24 hours, verified without any
// lookup. Signing and verifying use node:crypto's synchronous HMAC: on the creation and polling hot
// paths the WebCrypto round trip cost more than everything else in the request. The tokens are plain
// standard JWTs: the unit tests check them against jose in both directions.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Forbidden, Unauthorized } from '../errors.js';

export const POLL_TOKEN_PREFIX = 'pt_';
export const POLL_TOKEN_TTL_S = 24 * 60 * 60;
export const POLL_TOKEN_AUDIENCE = 'agent-utility:poll';

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

interface Claims {
  sub?: unknown;
  aud?: unknown;
  exp?: unknown;
  iat?: unknown;
}

const invalid = () => new Unauthorized('Poll token is malformed or its signature does not match.', 'INVALID_TOKEN');

export class PollTokens {
  private readonly key: Buffer;

  constructor(secret: string) {
    // A derived key, so a poll token can never double as another kind of signature made with SECRET.
    this.key = Buffer.from(`poll-token:${secret}`);
  }

  /** The HMAC key, for tests that check interoperability with other JWT libraries. */
  get verificationKey(): Uint8Array {
    return new Uint8Array(this.key);
  }

  private sign(signingInput: string): Buffer {
    return createHmac('sha256', this.key).update(signingInput).digest();
  }

  async issue(taskId: string, nowMs = Date.now()): Promise<string> {
    const iat = Math.floor(nowMs / 1000);
    const payload = Buffer.from(JSON.stringify({ sub: taskId, aud: POLL_TOKEN_AUDIENCE, iat, exp: iat + POLL_TOKEN_TTL_S })).toString('base64url');
    const signingInput = `${HEADER}.${payload}`;
    return `${POLL_TOKEN_PREFIX}${signingInput}.${this.sign(signingInput).toString('base64url')}`;
  }

  /** Returns the task id the token names, or throws 401 (expired, tampered, malformed). */
  async verify(token: string, nowMs = Date.now()): Promise<string> {
    if (!token.startsWith(POLL_TOKEN_PREFIX)) {
      throw new Unauthorized('Not a poll token (expected the pt_… token returned at task creation).', 'INVALID_TOKEN');
    }
    const parts = token.slice(POLL_TOKEN_PREFIX.length).split('.');
    if (parts.length !== 3) throw invalid();
    const [header, payload, signature] = parts as [string, string, string];
    let claims: Claims;
    try {
      const h = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown };
      // Only HS256: never "none", never an algorithm chosen by the token.
      if (h.alg !== 'HS256') throw invalid();
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Claims;
    } catch {
      throw invalid();
    }
    // Compare encodings, not decoded bytes: Node's base64url decoder skips junk characters and ignores
    // the spare low bits of the last one, so many different strings would decode to the same signature.
    const expected = Buffer.from(this.sign(`${header}.${payload}`).toString('base64url'));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
    if (claims.aud !== POLL_TOKEN_AUDIENCE || typeof claims.sub !== 'string' || typeof claims.exp !== 'number') throw invalid();
    if (claims.exp * 1000 <= nowMs) {
      throw new Unauthorized('Poll token expired (they are valid 24 hours). Read the task with the API key that created it.', 'TOKEN_EXPIRED');
    }
    return claims.sub;
  }

  /** Verifies and checks that the token is for this task (403 for another task's token). */
  async verifyFor(token: string, taskId: string, nowMs = Date.now()): Promise<void> {
    const sub = await this.verify(token, nowMs);
    if (sub !== taskId) throw new Forbidden('This poll token belongs to another task.', 'TOKEN_TASK_MISMATCH');
  }
}
