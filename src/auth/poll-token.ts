// Poll tokens: "pt_" + an HS256 JWT naming one task, valid 24 hours, verified without any lookup.
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { Forbidden, Unauthorized } from '../errors.js';

export const POLL_TOKEN_PREFIX = 'pt_';
export const POLL_TOKEN_TTL_S = 24 * 60 * 60;
const AUDIENCE = 'agent-utility:poll';

export class PollTokens {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    // A derived key, so a poll token can never double as another kind of signature made with SECRET.
    this.key = new TextEncoder().encode(`poll-token:${secret}`);
  }

  async issue(taskId: string, nowMs = Date.now()): Promise<string> {
    const iat = Math.floor(nowMs / 1000);
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(taskId)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + POLL_TOKEN_TTL_S)
      .sign(this.key);
    return `${POLL_TOKEN_PREFIX}${jwt}`;
  }

  /** Returns the task id the token names, or throws 401 (expired, tampered, malformed). */
  async verify(token: string, nowMs = Date.now()): Promise<string> {
    if (!token.startsWith(POLL_TOKEN_PREFIX)) throw new Unauthorized('Not a poll token (expected the pt_… token returned at task creation).', 'INVALID_TOKEN');
    try {
      const { payload } = await jwtVerify(token.slice(POLL_TOKEN_PREFIX.length), this.key, {
        algorithms: ['HS256'],
        audience: AUDIENCE,
        currentDate: new Date(nowMs),
      });
      if (typeof payload.sub !== 'string') throw new Unauthorized('Poll token names no task.', 'INVALID_TOKEN');
      return payload.sub;
    } catch (err) {
      if (err instanceof Unauthorized) throw err;
      if (err instanceof joseErrors.JWTExpired) {
        throw new Unauthorized('Poll token expired (they are valid 24 hours). Read the task with the API key that created it.', 'TOKEN_EXPIRED');
      }
      throw new Unauthorized('Poll token is malformed or its signature does not match.', 'INVALID_TOKEN');
    }
  }

  /** Verifies and checks that the token is for this task (403 for another task's token). */
  async verifyFor(token: string, taskId: string, nowMs = Date.now()): Promise<void> {
    const sub = await this.verify(token, nowMs);
    if (sub !== taskId) throw new Forbidden('This poll token belongs to another task.', 'TOKEN_TASK_MISMATCH');
  }
}
