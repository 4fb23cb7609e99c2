// email.verify against real components on loopback: Knot DNS serving the domains, and scripted SMTP
// servers (smtp-server and raw TCP peers), each on its own 127.25.0.x address with one shared port.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import tool from '../../tools/email.verify.js';
import { startKnot, type KnotServer } from '../support/knot.js';
import { startSmtpPeers, type SmtpPeerGroup } from '../support/smtp-peers.js';
import { ToolError } from '../../src/errors.js';
import { freePort } from '../support/free-port.js';
import { api, startTestService } from '../support/service.js';
import { makeToolContext, type TestToolContext } from '../support/tool-context.js';
import type { EmailVerifyResult } from '../../src/email/result.js';

const ZONE = 'ev.test';
const PEERS = {
  strict: '127.25.0.1',
  catchAll: '127.25.0.2',
  greylist: '127.25.0.3',
  full: '127.25.0.4',
  disabled: '127.25.0.5',
  policy: '127.25.0.6',
  banner421: '127.25.0.7',
  silent: '127.25.0.8',
  drop: '127.25.0.9',
} as const;

// Generous for the sessions that should succeed (CI runs many test files at once on two cores); the
// tests about silent servers set their own short timeout.
const HOST_TIMEOUT_MS = 10_000;
const SHORT_HOST_TIMEOUT_MS = '1500';

let knot: KnotServer;
let smtp: SmtpPeerGroup;
const contexts: TestToolContext[] = [];

function context(extra: Record<string, string> = {}): TestToolContext {
  const ctx = makeToolContext({
    DNS_SERVERS: knot.server,
    SMTP_PROBE_PORT: String(smtp.port),
    // Only the peers' range: 127.0.0.1 stays blocked, so the guard can be seen refusing an MX there.
    NETWORK_ALLOWLIST: '127.25.0.0/16',
    SMTP_HELO_NAME: 'probe.ev.test',
    SMTP_MAIL_FROM: 'verify@probe.ev.test',
    SMTP_PROBE_TIMEOUT_MS: String(HOST_TIMEOUT_MS),
    SMTP_PROBE_BUDGET_MS: '30000',
    SMTP_GREYLIST_RETRY_MS: '200',
    ...extra,
  });
  contexts.push(ctx);
  return ctx;
}

async function verify(email: string, ctx: TestToolContext = context()): Promise<EmailVerifyResult> {
  const input = tool.input.parse({ email });
  const result = await tool.run(ctx, input);
  // What the MCP client does with structuredContent: it must match the declared output schema.
  return tool.output.parse(result);
}

function connectionsTo(host: string): number {
  return smtp.peers.get(host)?.connections ?? 0;
}

beforeAll(async () => {
  smtp = await startSmtpPeers([
    { host: PEERS.strict, behaviour: 'strict', users: ['alice', 'info', 'josé'] },
    { host: PEERS.catchAll, behaviour: 'catch_all' },
    { host: PEERS.greylist, behaviour: 'greylist', users: ['gina'] },
    { host: PEERS.full, behaviour: 'full', users: ['fred'] },
    { host: PEERS.disabled, behaviour: 'disabled', users: ['dora'] },
    { host: PEERS.policy, behaviour: 'policy' },
    { host: PEERS.banner421, behaviour: 'banner_421' },
    { host: PEERS.silent, behaviour: 'silent' },
    { host: PEERS.drop, behaviour: 'drop' },
  ]);
  const mx = (name: string, ip: string) => [`${name} 300 IN MX 10 mx.${name}`, `mx.${name} 300 IN A ${ip}`];
  knot = await startKnot([
    {
      origin: ZONE,
      records: [
        ...mx('strict', PEERS.strict),
        ...mx('catchall', PEERS.catchAll),
        ...mx('greylist', PEERS.greylist),
        ...mx('full', PEERS.full),
        ...mx('disabled', PEERS.disabled),
        ...mx('policy', PEERS.policy),
        ...mx('banner421', PEERS.banner421),
        ...mx('silent', PEERS.silent),
        ...mx('drop', PEERS.drop),
        // Two MX hosts: the preferred one never answers, the backup is strict.
        'backup 300 IN MX 10 mx.silent',
        'backup 300 IN MX 20 mx.strict',
        // Same preference order written backwards in the zone.
        'ordered 300 IN MX 30 mx.silent',
        'ordered 300 IN MX 5 mx.strict',
        // No MX, but an address: implicit MX (RFC 5321 §5.1) on the strict peer.
        `implicit 300 IN A ${PEERS.strict}`,
        // RFC 7505 null MX.
        'nullmx 300 IN MX 0 .',
        // Exists (has a TXT record) but neither MX nor A/AAAA.
        'nomx 300 IN TXT "v=spf1 -all"',
        // MX host without any address.
        'dangling 300 IN MX 10 gone',
        // MX host on 127.0.0.1, outside NETWORK_ALLOWLIST: the guard must refuse it.
        'guarded 300 IN MX 10 mx.guarded',
        'mx.guarded 300 IN A 127.0.0.1',
        // Mail hosted in Yahoo's network (never resolved or contacted: the probe is skipped).
        'yahoohosted 300 IN MX 10 mta5.am0.yahoodns.net.',
        // An IDN domain, bücher.ev.test, on the strict peer.
        ...mx('xn--bcher-kva', PEERS.strict),
      ],
    },
    // Real-world names, served only by this local Knot (nothing leaves the machine).
    { origin: 'gmail.con', records: [`@ 300 IN A ${PEERS.strict}`] },
    { origin: 'gmial.com', records: ['@ 300 IN MX 10 mx', `mx 300 IN A ${PEERS.catchAll}`] },
    { origin: 'mailinator.com', records: ['@ 300 IN MX 10 mx', `mx 300 IN A ${PEERS.catchAll}`] },
    { origin: 'yahoo.com', records: ['@ 300 IN MX 1 mta5.am0.yahoodns.net.'] },
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  await smtp?.stop();
  await knot?.stop();
});

describe('email.verify input', { timeout: 30_000 }, () => {
  it('answers 400-style schema errors for a missing field or a string with no @', () => {
    expect(tool.input.safeParse({}).success).toBe(false);
    expect(tool.input.safeParse({ email: 42 }).success).toBe(false);
    expect(tool.input.safeParse({ email: 'not an address' }).success).toBe(false);
    expect(tool.input.safeParse({ email: '@' }).success).toBe(false);
    expect(tool.input.safeParse({ email: 'a@b' }).success).toBe(true);
  });
});

describe('email.verify over SMTP', { timeout: 30_000 }, () => {
  it('DELIVERABLE for a known user of a strict server, noting its untrusted STARTTLS certificate', async () => {
    const r = await verify('Alice@STRICT.ev.test');
    expect(r).toMatchObject({
      email: 'Alice@strict.ev.test',
      status: 'DELIVERABLE',
      status_detail: 'accepted',
      deliverable: true,
      is_format_valid: true,
      is_smtp_valid: true,
      is_mx_valid: true,
      mx_records: ['mx.strict.ev.test'],
      is_catchall: false,
      is_disposable: false,
      is_role_based: false,
      mail_route: 'mx',
      quality_score: 1,
    });
    expect(r.smtp).toMatchObject({ host: 'mx.strict.ev.test', code: 250 });
    expect(r.smtp?.tls).toMatchObject({ offered: true, used: true, certificate_valid: false });
    expect(r.smtp?.tls?.error).toBeTruthy();
    const peer = smtp.peers.get(PEERS.strict)!;
    expect(peer.heloNames).toContain('probe.ev.test');
    expect(peer.mailFrom).toContain('verify@probe.ev.test');
    // The address and then a random one at the same domain, in the same session.
    const i = peer.rcptTo.lastIndexOf('Alice@strict.ev.test');
    expect(i).toBeGreaterThanOrEqual(0);
    expect(peer.rcptTo[i + 1]).toMatch(/^[a-z2-7]{20}@strict\.ev\.test$/);
  });

  it('UNDELIVERABLE mailbox_not_found for an unknown user (550 5.1.1)', async () => {
    const r = await verify('nobody@strict.ev.test');
    expect(r).toMatchObject({ status: 'UNDELIVERABLE', status_detail: 'mailbox_not_found', deliverable: false, is_smtp_valid: false, quality_score: 0 });
    expect(r.smtp).toMatchObject({ code: 550, enhanced_code: '5.1.1' });
  });

  it('RISKY role_based for an accepted role address', async () => {
    const r = await verify('info@strict.ev.test');
    expect(r).toMatchObject({ status: 'RISKY', status_detail: 'role_based', deliverable: true, is_role_based: true, is_smtp_valid: true, quality_score: 0.8 });
  });

  it('RISKY catch_all when a random address is accepted too', async () => {
    const r = await verify('whoever@catchall.ev.test');
    expect(r).toMatchObject({ status: 'RISKY', status_detail: 'catch_all', is_catchall: true, is_smtp_valid: true, deliverable: false, quality_score: 0.6 });
  });

  it('retries a greylisting server once and then believes its answer', async () => {
    const before = connectionsTo(PEERS.greylist);
    const r = await verify('gina@greylist.ev.test');
    expect(r).toMatchObject({ status: 'DELIVERABLE', status_detail: 'accepted', is_smtp_valid: true });
    expect(connectionsTo(PEERS.greylist) - before).toBe(2);
  });

  it('UNKNOWN greylisted when the only retry does not fit in the budget', async () => {
    const ctx = context({ SMTP_GREYLIST_RETRY_MS: '20000', SMTP_PROBE_BUDGET_MS: '5000' });
    const r = await verify('gina.late@greylist.ev.test', ctx);
    expect(r).toMatchObject({ status: 'UNKNOWN', status_detail: 'greylisted', deliverable: false });
    expect(r.smtp).toMatchObject({ code: 451, enhanced_code: '4.7.1' });
  });

  it('RISKY mailbox_full for 552 5.2.2', async () => {
    const r = await verify('fred@full.ev.test');
    expect(r).toMatchObject({ status: 'RISKY', status_detail: 'mailbox_full', deliverable: false, quality_score: 0.4 });
    expect(r.smtp).toMatchObject({ code: 552, enhanced_code: '5.2.2' });
  });

  it('UNDELIVERABLE mailbox_disabled for 550 5.2.1', async () => {
    const r = await verify('dora@disabled.ev.test');
    expect(r).toMatchObject({ status: 'UNDELIVERABLE', status_detail: 'mailbox_disabled', deliverable: false });
    expect(r.smtp).toMatchObject({ code: 550, enhanced_code: '5.2.1' });
  });

  it('UNKNOWN blocked_by_server for a policy refusal (554 5.7.1), never "does not exist"', async () => {
    const r = await verify('someone@policy.ev.test');
    expect(r).toMatchObject({ status: 'UNKNOWN', status_detail: 'blocked_by_server', deliverable: false });
    expect(r.smtp).toMatchObject({ code: 554, enhanced_code: '5.7.1' });
  });

  it('UNKNOWN smtp_unavailable for 421 at the greeting', async () => {
    const r = await verify('someone@banner421.ev.test');
    expect(r).toMatchObject({ status: 'UNKNOWN', status_detail: 'smtp_unavailable' });
    expect(r.smtp).toMatchObject({ code: 421 });
  });

  it('UNKNOWN smtp_timeout for a server that never greets', async () => {
    const r = await verify('someone@silent.ev.test', context({ SMTP_PROBE_TIMEOUT_MS: SHORT_HOST_TIMEOUT_MS }));
    expect(r).toMatchObject({ status: 'UNKNOWN', status_detail: 'smtp_timeout', deliverable: false });
    expect(r.smtp).toMatchObject({ host: 'mx.silent.ev.test', code: null });
  });

  it('UNKNOWN connection_dropped for a server that hangs up mid-session', async () => {
    const r = await verify('someone@drop.ev.test');
    expect(r).toMatchObject({ status: 'UNKNOWN', status_detail: 'connection_dropped' });
  });

  it('tries MX hosts in preference order, falling back when the first one times out', async () => {
    const silentBefore = connectionsTo(PEERS.silent);
    const r = await verify('alice@backup.ev.test', context({ SMTP_PROBE_TIMEOUT_MS: '3000' }));
    expect(r).toMatchObject({ status: 'DELIVERABLE', mx_records: ['mx.silent.ev.test', 'mx.strict.ev.test'] });
    expect(r.smtp?.host).toBe('mx.strict.ev.test');
    expect(connectionsTo(PEERS.silent) - silentBefore).toBe(1);

    const silentBefore2 = connectionsTo(PEERS.silent);
    const ordered = await verify('alice@ordered.ev.test');
    expect(ordered.mx_records).toEqual(['mx.strict.ev.test', 'mx.silent.ev.test']);
    expect(ordered.status).toBe('DELIVERABLE');
    // The preferred host answered, so the silent one was never tried.
    expect(connectionsTo(PEERS.silent) - silentBefore2).toBe(0);
  });

  it('uses the implicit MX (A record) when a domain has no MX', async () => {
    const r = await verify('alice@implicit.ev.test');
    expect(r).toMatchObject({ status: 'DELIVERABLE', is_mx_valid: false, mx_records: [], mail_route: 'implicit', quality_score: 0.9 });
    expect(r.smtp?.host).toBe('implicit.ev.test');
  });

  it('verifies IDN domains in their ASCII form and reports the Unicode form', async () => {
    const r = await verify('alice@BÜCHER.ev.test');
    // DNS was asked for the A-label form (Knot only has that name).
    expect(r).toMatchObject({ email: 'alice@bücher.ev.test', status: 'DELIVERABLE', mx_records: ['mx.xn--bcher-kva.ev.test'] });
  });

  it('sends a UTF-8 local part with SMTPUTF8 when the server offers it', async () => {
    const r = await verify('josé@strict.ev.test');
    expect(r).toMatchObject({ status: 'DELIVERABLE', email: 'josé@strict.ev.test' });
  });

  it('never connects to an MX host the network guard refuses', async () => {
    const r = await verify('someone@guarded.ev.test');
    expect(r).toMatchObject({ status: 'UNKNOWN', status_detail: 'blocked_target', deliverable: false, mx_records: ['mx.guarded.ev.test'] });
    expect(r.reason).toMatch(/^Blocked: private address\. mx\.guarded\.ev\.test /);
  });

  it("skips the probe for providers that accept every address (MX in Yahoo's network)", async () => {
    const before = smtp.connections();
    const r = await verify('someone@yahoohosted.ev.test');
    expect(r).toMatchObject({
      status: 'UNKNOWN',
      status_detail: 'accepts_all_provider',
      deliverable: false,
      is_smtp_valid: false,
      mx_records: ['mta5.am0.yahoodns.net'],
    });
    expect(smtp.connections()).toBe(before);
  });

  it('suggests the intended domain for a look-alike of a popular one, and lowers the score', async () => {
    const r = await verify('alice@gmail.con');
    expect(r).toMatchObject({ status: 'DELIVERABLE', suggestion: 'alice@gmail.com', mail_route: 'implicit' });
    // 0.9 base (accepted, implicit MX) - 0.2 for the likely typo.
    expect(r.quality_score).toBe(0.7);
    expect((await verify('alice@strict.ev.test')).suggestion).toBeNull();
    // gmial.com is a typo-squatting throwaway domain: flagged, not probed, and still corrected.
    const squat = await verify('alice@gmial.com');
    expect(squat).toMatchObject({ status: 'RISKY', status_detail: 'disposable', suggestion: 'alice@gmail.com', quality_score: 0 });
  });

  it('UNKNOWN accepts_all_provider for yahoo.com itself, without probing', async () => {
    const before = smtp.connections();
    const r = await verify('someone@yahoo.com');
    expect(r).toMatchObject({ status: 'UNKNOWN', status_detail: 'accepts_all_provider', is_free_email: true, is_mx_valid: true, quality_score: 0.6 });
    expect(smtp.connections()).toBe(before);
  });
});

describe('email.verify from DNS alone', { timeout: 30_000 }, () => {
  it('UNDELIVERABLE null_mx for a null MX (RFC 7505) without any SMTP', async () => {
    const before = smtp.connections();
    const r = await verify('someone@nullmx.ev.test');
    expect(r).toMatchObject({ status: 'UNDELIVERABLE', status_detail: 'null_mx', is_mx_valid: false, mx_records: [], mail_route: 'null_mx', quality_score: 0 });
    expect(smtp.connections()).toBe(before);
  });

  it('UNDELIVERABLE no_mx when the domain has neither MX nor an address', async () => {
    const r = await verify('someone@nomx.ev.test');
    expect(r).toMatchObject({ status: 'UNDELIVERABLE', status_detail: 'no_mx', mail_route: 'none', is_mx_valid: false });
  });

  it('UNDELIVERABLE domain_not_found for a domain that does not exist', async () => {
    const r = await verify('someone@nosuch.ev.test');
    expect(r).toMatchObject({ status: 'UNDELIVERABLE', status_detail: 'domain_not_found', deliverable: false });
  });

  it('UNDELIVERABLE mx_host_not_found when the MX host has no address', async () => {
    const r = await verify('someone@dangling.ev.test');
    expect(r).toMatchObject({ status: 'UNDELIVERABLE', status_detail: 'mx_host_not_found', mx_records: ['gone.ev.test'] });
  });

  it('a bad address is a complete UNDELIVERABLE invalid_format result', async () => {
    const r = await verify('two..dots@strict.ev.test');
    expect(r).toMatchObject({ status: 'UNDELIVERABLE', status_detail: 'invalid_format', is_format_valid: false, quality_score: 0, deliverable: false });
    expect(r.reason).toMatch(/two dots/);
  });

  it('RISKY disposable for a throwaway-mailbox domain, without probing it', async () => {
    const before = connectionsTo(PEERS.catchAll);
    const r = await verify('someone@mailinator.com');
    expect(r).toMatchObject({ status: 'RISKY', status_detail: 'disposable', is_disposable: true, is_mx_valid: true, deliverable: false, quality_score: 0.2 });
    expect(connectionsTo(PEERS.catchAll)).toBe(before);
  });

  it('fails the task as transient (retried, refunded) when the DNS resolver itself does not answer', async () => {
    const ctx = context({ DNS_SERVERS: `127.0.0.1:${await freePort()}` });
    const err = await tool.run(ctx, tool.input.parse({ email: 'alice@strict.ev.test' })).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ToolError);
    expect(err).toMatchObject({ kind: 'transient' });
  });

  it('UNKNOWN dns_error when DNS cannot answer (a name outside every zone: REFUSED)', async () => {
    const r = await verify('someone@unserved.example');
    expect(r).toMatchObject({ status: 'UNKNOWN', status_detail: 'dns_error', deliverable: false });
  });
});

describe('email.verify per-domain cache', { timeout: 30_000 }, () => {
  it('reuses the catch-all finding: a second address at a catch-all domain opens no connection', async () => {
    const ctx = context();
    const before = connectionsTo(PEERS.catchAll);
    const first = await verify('one@catchall.ev.test', ctx);
    const second = await verify('two@catchall.ev.test', ctx);
    expect(first.status_detail).toBe('catch_all');
    expect(second).toMatchObject({ status: 'RISKY', status_detail: 'catch_all', is_catchall: true });
    expect(connectionsTo(PEERS.catchAll) - before).toBe(1);
  });

  it('with the cache off, every verification probes again', async () => {
    const ctx = context({ EMAIL_CACHE_TTL_S: '0' });
    const peer = smtp.peers.get(PEERS.catchAll)!;
    const before = peer.rcptTo.length;
    await verify('one@catchall.ev.test', ctx);
    await verify('two@catchall.ev.test', ctx);
    // Both addresses asked again (a session may be shared, so connections are not the measure here).
    const asked = peer.rcptTo.slice(before);
    expect(asked).toContain('one@catchall.ev.test');
    expect(asked).toContain('two@catchall.ev.test');
  });

  it('remembers that a strict domain refuses unknown addresses and skips the random RCPT', async () => {
    const ctx = context();
    const peer = smtp.peers.get(PEERS.strict)!;
    await verify('alice@strict.ev.test', ctx);
    const start = peer.rcptTo.length;
    const again = await verify('alice@strict.ev.test', ctx);
    expect(again.status).toBe('DELIVERABLE');
    expect(peer.rcptTo.slice(start)).toEqual(['alice@strict.ev.test']);
  });
});

describe('email.verify cancellation', { timeout: 30_000 }, () => {
  it('stops probing when the task is cancelled', async () => {
    const ctx = context({ SMTP_PROBE_TIMEOUT_MS: '30000', SMTP_PROBE_BUDGET_MS: '40000' });
    const pending = verify('someone@silent.ev.test', ctx);
    setTimeout(() => ctx.abort(), 200);
    await expect(pending).rejects.toThrow(/cancelled/);
  });
});

describe('email.verify through REST', { timeout: 30_000 }, () => {
  it('runs as a task and returns every documented field; a non-address is a 400 naming the field', async () => {
    const service = await startTestService(
      {
        DNS_SERVERS: knot.server,
        SMTP_PROBE_PORT: String(smtp.port),
        NETWORK_ALLOWLIST: '127.25.0.0/16',
        SMTP_PROBE_TIMEOUT_MS: String(HOST_TIMEOUT_MS),
      },
      { tools: [tool] },
    );
    try {
      const { key } = await service.createKey(1);
      const created = await api(service.url, 'POST', '/v1/tools/email.verify/tasks', { token: key, body: { email: 'alice@strict.ev.test' } });
      expect(created.status).toBeLessThan(300);
      expect(created.body).toMatchObject({ status: 'pending', poll_url: `/v1/tasks/${created.body.task_id}` });
      let task: { status: number; body: any } = { status: 0, body: { status: 'pending' } };
      for (let i = 0; i < 200 && task.body.status !== 'complete' && task.body.status !== 'failed'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        task = await api(service.url, 'GET', created.body.poll_url, { token: created.body.poll_token });
      }
      expect(task.body).toMatchObject({ status: 'complete', tool: 'email.verify' });
      const result = task.body.result;
      for (const field of [
        'email',
        'deliverable',
        'status',
        'status_detail',
        'quality_score',
        'is_format_valid',
        'is_smtp_valid',
        'is_mx_valid',
        'mx_records',
        'is_disposable',
        'is_free_email',
        'is_role_based',
        'is_catchall',
      ]) {
        expect(result, field).toHaveProperty(field);
      }
      expect(result).toMatchObject({ email: 'alice@strict.ev.test', status: 'DELIVERABLE', deliverable: true, mx_records: ['mx.strict.ev.test'] });

      for (const body of [{}, { email: 'no address here' }]) {
        const bad = await api(service.url, 'POST', '/v1/tools/email.verify/tasks', { token: key, body });
        expect(bad.status).toBe(400);
        expect(bad.body).toMatchObject({ code: 'INVALID_INPUT', field: 'email' });
      }
    } finally {
      await service.close();
    }
  });
});
