// Free-tier registration by e-mail. POST /v1/register always answers the same way (no account probing);
// the address receives a single-use verification link; following it issues the key and e-mails it once.
// One active key per account: verifying again, or rotating, revokes the previous key (so quotas, which
// count per account, cannot be multiplied by collecting keys).
import MailChecker from 'mailchecker';
import type { Logger } from '../logger.js';
import { Gone, InvalidInput, RateLimited, ServiceUnavailable } from '../errors.js';
import { accountEmail } from './account-email.js';
import { newApiKey } from './auth.js';
import { randomSecret, sha256Hex } from './ids.js';
import type { Mailer } from './mailer.js';
import type { LeadStore } from './store.js';

export const REGISTER_MESSAGE = 'If this address can receive mail, a verification link is on its way. Follow it to receive your API key by e-mail.';

export interface RegistrationLimits {
  /** Registration calls per client IP per window (over it: 429). */
  perIp: number;
  /** Verification mails per e-mail address per window (over it: silently not sent, same 202). */
  perEmail: number;
  windowMs: number;
  /** How long a verification link works. */
  linkTtlMs: number;
}

export const DEFAULT_REGISTRATION_LIMITS: RegistrationLimits = { perIp: 10, perEmail: 3, windowMs: 3_600_000, linkTtlMs: 24 * 3_600_000 };

export interface RegistrationDeps {
  store: LeadStore;
  mailer: Mailer;
  log: Logger;
  limits: RegistrationLimits;
  now: () => number;
  /** Absolute base URL of the lead service, for the link in the mail. */
  publicUrl: () => string;
  /** Runs work after the response (mail sending) and lets close() wait for it. */
  background: (work: Promise<unknown>) => void;
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export class Registration {
  constructor(private readonly d: RegistrationDeps) {}

  /** Per-IP limiter state, for the RateLimit-* headers of unauthenticated responses. */
  async ipState(ip: string): Promise<{ used: number; resetSeconds: number }> {
    const now = this.d.now();
    const counts = await this.d.store.countRegisterAttempts(ip, null, now - this.d.limits.windowMs);
    const resetMs = counts.oldestByIp === null ? 0 : counts.oldestByIp + this.d.limits.windowMs - now;
    return { used: counts.byIp, resetSeconds: resetMs / 1000 };
  }

  async register(rawEmail: string, ip: string): Promise<void> {
    const email = normaliseEmail(rawEmail);
    if (!MailChecker.isValid(email)) {
      throw new InvalidInput('email: disposable or malformed addresses cannot register; use a mailbox you keep.', 'email', 'INVALID_EMAIL');
    }
    const now = this.d.now();
    const since = now - this.d.limits.windowMs;
    // Counted per mailbox, so +tags and Gmail dots do not multiply the per-address limit.
    const emailHash = sha256Hex(accountEmail(email));
    const counts = await this.d.store.countRegisterAttempts(ip, emailHash, since);
    if (counts.byIp >= this.d.limits.perIp) {
      const retry = ((counts.oldestByIp ?? now) + this.d.limits.windowMs - now) / 1000;
      throw new RateLimited('Too many registrations from this address; try again later.', retry, 'REGISTER_RATE_LIMITED');
    }
    await this.d.store.recordRegisterAttempt(ip, emailHash, now);
    // Over the per-address limit we still answer 202 with the same text: a different answer would tell a
    // prober that someone registered this address recently.
    if (counts.byEmail >= this.d.limits.perEmail) {
      this.d.log.info('verification mail suppressed: per-address limit reached');
      return;
    }
    const token = randomSecret('lv');
    await this.d.store.createVerification({ tokenHash: sha256Hex(token), email, createdAt: now, expiresAt: now + this.d.limits.linkTtlMs });
    const link = `${this.d.publicUrl()}/v1/register/verify?token=${encodeURIComponent(token)}`;
    const hours = Math.round(this.d.limits.linkTtlMs / 3_600_000);
    // Sent after the response, so the answer's timing does not depend on the mail server either.
    this.d.background(
      this.d.mailer
        .send({
          to: email,
          subject: 'Confirm your e-mail address for the home-services lead API',
          text: [
            'Someone (hopefully you) asked for a free API key for the home-services lead API with this address.',
            '',
            `To receive the key, open this link within ${hours} hours (it works once):`,
            link,
            '',
            'If you did not ask for this, ignore this message; nothing happens without the link.',
          ].join('\n'),
        })
        .catch((err: unknown) => this.d.log.warn('verification mail could not be sent', { err })),
    );
  }

  /** Consumes the link, issues the account's key and e-mails it. The key is never shown anywhere else. */
  async verify(token: string): Promise<{ email: string }> {
    const now = this.d.now();
    const found = token ? await this.d.store.consumeVerification(sha256Hex(token), now) : undefined;
    if (!found) {
      throw new Gone('This verification link is invalid, expired or already used. Register again to get a new one.', 'VERIFICATION_LINK_INVALID');
    }
    const key = newApiKey();
    // One account per mailbox (see accountEmail): registering a+2@x.com after a+1@x.com rotates that
    // account's key instead of opening a second free quota.
    await this.d.store.issueKey(accountEmail(found.email), key, now);
    try {
      await this.d.mailer.send({
        to: found.email,
        subject: 'Your home-services lead API key',
        text: [
          'Your e-mail address is verified. Your API key:',
          '',
          key.key,
          '',
          'Send it as "Authorization: Bearer <key>" (or "X-API-Key: <key>").',
          'Keep it secret. We store only a hash of it and will not send it again; if you lose it, register again',
          '(that revokes this key), or rotate it with POST /v1/keys/rotate.',
          '',
          'Free tier: 100 searches and 50 requests per day, across up to 10 service categories; limits reset at midnight UTC.',
        ].join('\n'),
      });
    } catch (err) {
      // Without the mail nobody has the key: revoke it so it can never be used, and ask for a new link.
      await this.d.store.revokeKey(key.id, this.d.now());
      this.d.log.error('API key mail could not be sent; key revoked', { err });
      throw new ServiceUnavailable('Your address is verified, but the key could not be e-mailed. Register again in a few minutes.', 'MAIL_UNAVAILABLE');
    }
    return { email: found.email };
  }
}
