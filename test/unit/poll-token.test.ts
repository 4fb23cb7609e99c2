// Poll tokens are standard HS256 JWTs: jose accepts ours and we accept jose's; expiry, tampering,
// audience, algorithm and task binding are enforced.
import { describe, expect, it } from 'vitest';
import { SignJWT, jwtVerify } from 'jose';
import { PollTokens, POLL_TOKEN_AUDIENCE } from '../../src/auth/poll-token.js';
import { AppError } from '../../src/errors.js';

const tokens = new PollTokens('s'.repeat(40));

async function rejects(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected a rejection');
}

describe('poll tokens', () => {
  it('issues a pt_-prefixed JWT that jose verifies with the same key', async () => {
    const t = await tokens.issue('task_abc');
    expect(t).toMatch(/^pt_[\w-]+\.[\w-]+\.[\w-]+$/);
    const { payload, protectedHeader } = await jwtVerify(t.slice(3), tokens.verificationKey, { audience: POLL_TOKEN_AUDIENCE });
    expect(protectedHeader.alg).toBe('HS256');
    expect(payload.sub).toBe('task_abc');
    expect(payload.exp! - payload.iat!).toBe(24 * 3600);
  });

  it('accepts a token signed by jose', async () => {
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('task_x')
      .setAudience(POLL_TOKEN_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(tokens.verificationKey);
    expect(await tokens.verify(`pt_${jwt}`)).toBe('task_x');
  });

  it('rejects expired (401 TOKEN_EXPIRED), tampered, foreign-key, wrong-audience and alg=none tokens', async () => {
    const old = await tokens.issue('task_a', Date.now() - 25 * 3600 * 1000);
    expect((await rejects(tokens.verify(old))).code).toBe('TOKEN_EXPIRED');
    const good = await tokens.issue('task_a');
    const [h, p, s] = good.slice(3).split('.');
    const otherPayload = Buffer.from(JSON.stringify({ sub: 'task_b', aud: POLL_TOKEN_AUDIENCE, exp: 9_999_999_999 })).toString('base64url');
    expect((await rejects(tokens.verify(`pt_${h}.${otherPayload}.${s}`))).status).toBe(401);
    expect((await rejects(new PollTokens('t'.repeat(40)).verify(good))).status).toBe(401);
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect((await rejects(tokens.verify(`pt_${none}.${p}.`))).status).toBe(401);
    const wrongAud = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('task_a')
      .setAudience('else')
      .setExpirationTime('1h')
      .sign(tokens.verificationKey);
    expect((await rejects(tokens.verify(`pt_${wrongAud}`))).status).toBe(401);
    expect((await rejects(tokens.verify('pt_garbage'))).status).toBe(401);
    expect((await rejects(tokens.verify('sk_live_x'))).status).toBe(401);
  });

  it('accepts only the canonical signature encoding: junk, extra or altered trailing characters → 401', async () => {
    const good = await tokens.issue('task_a');
    const body = good.slice(0, good.lastIndexOf('.') + 1);
    const sig = good.slice(good.lastIndexOf('.') + 1);
    expect(await tokens.verify(good)).toBe('task_a');
    // The last of 43 characters carries 4 bits of the hash and 2 spare bits: flip only the spare ones.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(sig.at(-1)!);
    const sameBits = alphabet[(last & ~3) | ((last + 1) & 3)]!;
    const variants = [
      `${sig}~`, // an extra trailing character
      `${sig}=`, // padding
      `${sig.slice(0, -1)}${sameBits}`, // altered last character that decodes to the same bytes
      `${sig.slice(0, 10)}!${sig.slice(10)}`, // junk inserted
      `${sig.slice(0, 10)}*${sig.slice(10)}`,
      ` ${sig}`,
    ];
    for (const v of variants) {
      expect(Buffer.from(v, 'base64url').equals(Buffer.from(sig, 'base64url'))).toBe(true);
      expect((await rejects(tokens.verify(`${body}${v}`))).status).toBe(401);
    }
  });

  it('binds a token to its task: another task → 403', async () => {
    const t = await tokens.issue('task_a');
    await tokens.verifyFor(t, 'task_a');
    expect((await rejects(tokens.verifyFor(t, 'task_b'))).status).toBe(403);
  });
});
