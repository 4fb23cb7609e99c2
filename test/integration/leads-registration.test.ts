// Registration by e-mail against a running lead service, with a real SMTP server capturing the mail.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/leads/ids.js';
import { REGISTER_MESSAGE } from '../../src/leads/registration.js';
import { startLeadsService } from '../../src/leads/service.js';
import { createLogger } from '../../src/logger.js';
import { api, extractKey, parseMail, registerKey, startLeadsForTest, type LeadsUnderTest } from '../support/leads-harness.js';
import { testConfig } from '../support/tool-context.js';

let t: LeadsUnderTest;

beforeAll(async () => {
  t = await startLeadsForTest({ overrides: { registrationLimits: { perIp: 20, perEmail: 2, windowMs: 3_600_000, linkTtlMs: 3_600_000 } } });
});
afterAll(async () => {
  await t?.close();
});

describe('lead service registration', () => {
  it('mails a single-use link, then mails the key once; the key works as Bearer and X-API-Key', async () => {
    const email = 'alice@agent-utility.test';
    const key = await registerKey(t, email);
    expect(key).toMatch(/^lk_/);

    const bearer = await api(t.url, 'GET', '/v1/usage', { key });
    expect(bearer.status).toBe(200);
    expect(bearer.body.searches).toEqual({ used: 0, limit: 100 });
    expect(bearer.body.requests).toEqual({ used: 0, limit: 50 });
    const alias = await api(t.url, 'GET', '/v1/usage', { headers: { 'x-api-key': key } });
    expect(alias.status).toBe(200);

    // The verification link works once.
    const verification = t.mail.messages.find((m) => m.to.includes(email) && /confirm/i.test(m.subject));
    const link = /https?:\/\/\S+\/v1\/register\/verify\?token=\S+/.exec(verification?.text ?? '')?.[0] ?? '';
    const again = await fetch(link, { headers: { accept: 'application/json' } });
    expect(again.status).toBe(410);
    expect(((await again.json()) as { code: string }).code).toBe('VERIFICATION_LINK_INVALID');
    // …and no second key mail was sent.
    expect(t.mail.messages.filter((m) => m.to.includes(email) && /API key/.test(m.subject))).toHaveLength(1);
  });

  it('stores only a hash of the key', async () => {
    const key = await registerKey(t, 'hash-check@agent-utility.test');
    const db = new Database(path.join(t.config.dataDir, 'leads.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT key_hash, prefix FROM leads_api_keys').all() as { key_hash: string; prefix: string }[];
      expect(rows.some((r) => r.key_hash === sha256Hex(key))).toBe(true);
      const dump = JSON.stringify(db.prepare('SELECT * FROM leads_api_keys').all());
      expect(dump).not.toContain(key);
    } finally {
      db.close();
    }
  });

  it('answers every registration the same way, and stops mailing one address after its limit', async () => {
    const email = 'probe@agent-utility.test';
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await api(t.url, 'POST', '/v1/register', { body: { email } }));
    for (const a of answers) {
      expect(a.status).toBe(202);
      expect(a.body).toEqual({ message: REGISTER_MESSAGE });
    }
    // Per-address limit is 2 in this test: the third call was answered identically but mailed nothing.
    // idle() waits for the background mail sends; SMTP accepted each before its send resolved.
    await t.svc.idle();
    expect(t.mail.messages.filter((m) => m.to.includes(email))).toHaveLength(2);
  });

  it('rejects malformed and disposable addresses with 400 naming the field', async () => {
    const bad = await api(t.url, 'POST', '/v1/register', { body: { email: 'not-an-address' } });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('email');
    const disposable = await api(t.url, 'POST', '/v1/register', { body: { email: 'someone@mailinator.com' } });
    expect(disposable.status).toBe(400);
    expect(disposable.body.code).toBe('INVALID_EMAIL');
  });

  it('rotates and revokes keys', async () => {
    const key = await registerKey(t, 'rotate@agent-utility.test');
    const rotated = await api(t.url, 'POST', '/v1/keys/rotate', { key });
    expect(rotated.status).toBe(200);
    const fresh = String(rotated.body.api_key);
    expect(extractKey(fresh)).toBe(fresh);
    expect((await api(t.url, 'GET', '/v1/usage', { key })).status).toBe(401);
    expect((await api(t.url, 'GET', '/v1/usage', { key: fresh })).status).toBe(200);

    const revoked = await api(t.url, 'POST', '/v1/keys/revoke', { key: fresh });
    expect(revoked.status).toBe(200);
    const after = await api(t.url, 'GET', '/v1/usage', { key: fresh });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('API_KEY_REVOKED');
  });

  it('registering again revokes the previous key (one active key per account)', async () => {
    const email = 'again@agent-utility.test';
    const first = await registerKey(t, email);
    const second = await registerKey(t, email);
    expect(second).not.toBe(first);
    expect((await api(t.url, 'GET', '/v1/usage', { key: first })).status).toBe(401);
    expect((await api(t.url, 'GET', '/v1/usage', { key: second })).status).toBe(200);
  });

  it('treats +tags and Gmail dots as the same mailbox: one account, one key, one per-address limit', async () => {
    // Mail still goes to the address as typed.
    const first = await registerKey(t, 'plus+one@agent-utility.test');
    const second = await registerKey(t, 'plus+two@agent-utility.test');
    expect(second).not.toBe(first);
    // The same account: the second registration rotated the first key instead of opening a new quota.
    expect((await api(t.url, 'GET', '/v1/usage', { key: first })).status).toBe(401);
    expect((await api(t.url, 'GET', '/v1/usage', { key: second })).status).toBe(200);
    // The per-address limit (2 here) is the mailbox's: a third tag gets the same answer but no mail.
    const third = await api(t.url, 'POST', '/v1/register', { body: { email: 'plus+three@agent-utility.test' } });
    expect(third.status).toBe(202);
    await t.svc.idle();
    expect(t.mail.messages.filter((m) => m.to.includes('plus+three@agent-utility.test'))).toHaveLength(0);

    const gmail = await registerKey(t, 'john.doe@gmail.com');
    const googlemail = await registerKey(t, 'johndoe+leads@googlemail.com');
    expect((await api(t.url, 'GET', '/v1/usage', { key: gmail })).status).toBe(401);
    expect((await api(t.url, 'GET', '/v1/usage', { key: googlemail })).status).toBe(200);
  });

  it('401 without a key, in the shared error shape, with RateLimit headers', async () => {
    const res = await api(t.url, 'POST', '/v1/searches', { body: { service: 'plumber', zip: '10001' } });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 'MISSING_API_KEY', retry: false });
    expect(typeof res.body.error).toBe('string');
    expect(res.headers.get('ratelimit-limit')).toBe('20');
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });
});

describe('lead service registration rate limit per IP', () => {
  let small: LeadsUnderTest;
  beforeAll(async () => {
    small = await startLeadsForTest({ overrides: { registrationLimits: { perIp: 2, perEmail: 5, windowMs: 3_600_000, linkTtlMs: 3_600_000 } } });
  });
  afterAll(async () => {
    await small?.close();
  });

  it('answers 429 with Retry-After once an IP is over its limit', async () => {
    for (const n of [1, 2]) {
      const ok = await api(small.url, 'POST', '/v1/register', { body: { email: `ip${n}@agent-utility.test` } });
      expect(ok.status).toBe(202);
      expect(ok.headers.get('ratelimit-remaining')).toBe(String(2 - n));
    }
    const limited = await api(small.url, 'POST', '/v1/register', { body: { email: 'ip3@agent-utility.test' } });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('REGISTER_RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
  });
});

describe('lead service mail without SMTP_URL', () => {
  it('writes each message as an .eml file into DATA_DIR/outbox, and registration works from there', async () => {
    const config = testConfig({ HOST: '127.0.0.1', LEADS_MAIL_FROM: 'leads@agent-utility.test' });
    const svc = await startLeadsService({ config, log: createLogger(config.logLevel), port: 0 });
    const outbox = path.join(config.dataDir, 'outbox');
    const read = () =>
      (fs.existsSync(outbox) ? fs.readdirSync(outbox) : [])
        .filter((f) => f.endsWith('.eml'))
        .sort()
        .map((f) => parseMail(fs.readFileSync(path.join(outbox, f), 'utf8'), '', []));
    try {
      expect((await api(svc.url, 'POST', '/v1/register', { body: { email: 'outbox@agent-utility.test' } })).status).toBe(202);
      await svc.idle();
      const [verification] = read();
      expect(verification?.subject).toMatch(/Confirm/);
      const link = /https?:\/\/\S+\/v1\/register\/verify\?token=\S+/.exec(verification?.text ?? '')?.[0] ?? '';
      expect(link.startsWith(svc.url)).toBe(true);
      expect((await fetch(link, { headers: { accept: 'application/json' } })).status).toBe(200);
      const keyMail = read().find((m) => /API key/.test(m.subject));
      const key = extractKey(keyMail?.text ?? '') ?? '';
      expect((await api(svc.url, 'GET', '/v1/usage', { key })).status).toBe(200);
    } finally {
      await svc.close();
    }
  });
});
