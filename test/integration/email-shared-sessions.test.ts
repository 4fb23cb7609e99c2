// email.verify sharing SMTP sessions per mail server (what a batch gets by running one domain's
// addresses together): real smtp-server peers and Knot on loopback. Many addresses at one server cost a
// few sessions, each asking RCPT TO several times, with the catch-all test once per domain per session,
// at most SMTP_SESSIONS_PER_HOST sessions at once; greylisting is still honoured; and every address gets
// the answer it gets alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import tool from '../../tools/email.verify.js';
import { smtpSessionPoolService } from '../../src/email/smtp-session-pool.js';
import { startKnot, type KnotServer } from '../support/knot.js';
import { startSmtpPeers, type SmtpPeerGroup } from '../support/smtp-peers.js';
import { makeToolContext, type TestToolContext } from '../support/tool-context.js';

const PEERS = { strict: '127.28.0.1', catchAll: '127.28.0.2', greylist: '127.28.0.3' } as const;
const USERS = ['ann', 'bob', 'cat', 'dan', 'eve'];

let knot: KnotServer;
let smtp: SmtpPeerGroup;
const contexts: TestToolContext[] = [];

function context(extra: Record<string, string>): TestToolContext {
  const ctx = makeToolContext({
    DNS_SERVERS: knot.server,
    SMTP_PROBE_PORT: String(smtp.port),
    NETWORK_ALLOWLIST: '127.28.0.0/16',
    SMTP_HELO_NAME: 'probe.shared.test',
    SMTP_MAIL_FROM: 'verify@probe.shared.test',
    SMTP_PROBE_TIMEOUT_MS: '10000',
    SMTP_PROBE_BUDGET_MS: '30000',
    SMTP_GREYLIST_RETRY_MS: '200',
    ...extra,
  });
  contexts.push(ctx);
  return ctx;
}

async function verifyAll(ctx: TestToolContext, emails: string[]) {
  return Promise.all(emails.map(async (email) => tool.output.parse(await tool.run(ctx, tool.input.parse({ email })))));
}

/** 30 addresses at `domain`: the known users and 25 that do not exist. */
function addresses(domain: string): string[] {
  return Array.from({ length: 30 }, (_, i) => `${i < USERS.length ? USERS[i] : `nobody${i}`}@${domain}`);
}

beforeAll(async () => {
  smtp = await startSmtpPeers([
    { host: PEERS.strict, behaviour: 'strict', users: USERS },
    { host: PEERS.catchAll, behaviour: 'catch_all' },
    { host: PEERS.greylist, behaviour: 'greylist', users: USERS },
  ]);
  const mx = (name: string, ip: string) => [`${name} 300 IN MX 10 mx.${name}`, `mx.${name} 300 IN A ${ip}`];
  knot = await startKnot([
    {
      origin: 'shared.test',
      records: [...mx('strict', PEERS.strict), ...mx('strict2', PEERS.strict), ...mx('catchall', PEERS.catchAll), ...mx('greylist', PEERS.greylist)],
    },
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  await smtp?.stop();
  await knot?.stop();
});

describe('shared SMTP sessions', () => {
  it('30 addresses at one server: a few sessions of several RCPTs, the same answers as one session each', async () => {
    const peer = smtp.peers.get(PEERS.strict)!;
    const emails = addresses('strict.shared.test');

    // One session each (cache off, so every probe also tests for a catch-all): the baseline answers.
    const alone = context({ SMTP_SESSIONS_PER_HOST: '100', SMTP_RCPTS_PER_SESSION: '1', EMAIL_CACHE_TTL_S: '0' });
    const before = peer.connections;
    const baseline = await verifyAll(alone, emails);
    expect(peer.connections - before).toBe(30);

    // The domain cache shares the MX lookup, so all 30 reach the pool together, as a batch's do.
    const shared = context({ SMTP_SESSIONS_PER_HOST: '1', SMTP_RCPTS_PER_SESSION: '10' });
    const start = peer.connections;
    const rcptsBefore = peer.rcptTo.length;
    const results = await verifyAll(shared, emails);
    expect(results.map((r) => r.status_detail)).toEqual(baseline.map((r) => r.status_detail));
    expect(results.slice(0, USERS.length).every((r) => r.status_detail === 'accepted')).toBe(true);
    expect(results.slice(USERS.length).every((r) => r.status_detail === 'mailbox_not_found')).toBe(true);
    // At most 10 recipients a session: 3 sessions, however the arrivals fell.
    const sessions = peer.connections - start;
    expect(sessions).toBe(3);
    const pool = await shared.use(smtpSessionPoolService);
    expect(pool.stats()).toEqual({ sessions: 3, recipients: 30 });
    // The catch-all test (a random RCPT) ran at most once per session, not once per accepted address.
    const randomRcpts = peer.rcptTo.length - rcptsBefore - emails.length;
    expect(randomRcpts).toBeGreaterThanOrEqual(1);
    expect(randomRcpts).toBeLessThanOrEqual(sessions);
  });

  it('a catch-all domain: every address catch_all, the random address asked once per session', async () => {
    const peer = smtp.peers.get(PEERS.catchAll)!;
    const emails = addresses('catchall.shared.test');
    const ctx = context({ SMTP_SESSIONS_PER_HOST: '1', SMTP_RCPTS_PER_SESSION: '30' });
    const rcptsBefore = peer.rcptTo.length;
    const start = peer.connections;
    const results = await verifyAll(ctx, emails);
    expect(results.every((r) => r.status_detail === 'catch_all' && r.is_catchall)).toBe(true);
    expect(peer.connections - start).toBe(1);
    expect(peer.rcptTo.length - rcptsBefore).toBe(emails.length + 1);
  });

  it('greylisting is honoured: each address is asked again after the pause, in shared sessions', async () => {
    const peer = smtp.peers.get(PEERS.greylist)!;
    const emails = addresses('greylist.shared.test');
    const ctx = context({ SMTP_SESSIONS_PER_HOST: '2', SMTP_RCPTS_PER_SESSION: '20' });
    const start = peer.connections;
    const results = await verifyAll(ctx, emails);
    expect(results.slice(0, USERS.length).map((r) => r.status_detail)).toEqual(USERS.map(() => 'accepted'));
    expect(results.slice(USERS.length).every((r) => r.status_detail === 'mailbox_not_found')).toBe(true);
    // Every address got its 451 first and was asked again: two RCPTs each (plus catch-all tests).
    for (const e of emails) expect(peer.rcptTo.filter((r) => r === e).length).toBe(2);
    expect(peer.connections - start).toBeLessThan(emails.length);
  });

  it('two domains on one mail server share its sessions and keep their own catch-all answers', async () => {
    const peer = smtp.peers.get(PEERS.strict)!;
    const emails = [...addresses('strict.shared.test').slice(0, 10), ...addresses('strict2.shared.test').slice(0, 10)];
    const ctx = context({ SMTP_SESSIONS_PER_HOST: '1', SMTP_RCPTS_PER_SESSION: '20' });
    // Both domains' MX already known (as after a batch's first items), so all 20 arrive together.
    await verifyAll(ctx, ['ann@strict.shared.test', 'ann@strict2.shared.test']);
    const start = peer.connections;
    const results = await verifyAll(ctx, emails);
    // All 20 queue at once behind one session (the cap): that session, if it was still asking, takes what
    // it has room for, and at most one more session takes the rest.
    expect(peer.connections - start).toBeLessThanOrEqual(2);
    expect(results.filter((r) => r.status_detail === 'accepted').map((r) => r.email)).toEqual([
      ...USERS.map((u) => `${u}@strict.shared.test`),
      ...USERS.map((u) => `${u}@strict2.shared.test`),
    ]);
  });
});
