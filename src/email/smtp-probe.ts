// The SMTP probe: asks a domain's mail servers, in MX preference order, whether they would take mail for
// an address, without sending any. One session per attempt: banner, EHLO (HELO fallback), STARTTLS when
// offered, MAIL FROM, RCPT TO the address and then a random address at the same domain (a catch-all
// accepts both), RSET, QUIT. Every address is checked by the network guard before connecting; each
// session has its own deadline and all of them share one budget; a temporary answer is retried once.
import { randomBytes } from 'node:crypto';
import type { Logger } from '../logger.js';
import { SmtpSession, SmtpSessionError, type TlsOutcome } from './smtp-client.js';
import { classifyRcptReply, replyText, type RcptVerdict, type SmtpReply } from './smtp-reply.js';
import type { MailHost } from './mail-route.js';

/** The network guard as the probe uses it (src/net NetGuard satisfies this). */
export interface ProbeGuard {
  resolveAll(host: string, opts?: { signal?: AbortSignal | undefined }): Promise<{ address: string; family: 4 | 6 }[]>;
  checkAddress(ip: string, name?: string): { address: string; family: 4 | 6 };
}

export interface ProbeSettings {
  port: number;
  heloName: string;
  mailFrom: string;
  /** One session, connect to QUIT. */
  hostTimeoutMs: number;
  /** All sessions and the retry pause together. */
  budgetMs: number;
  /** Pause before retrying a temporary (4xx) answer; the retry happens only if it fits the budget. */
  greylistRetryMs: number;
}

export interface ProbeRequest {
  /** Mail hosts in preference order. */
  hosts: MailHost[];
  /** ASCII domain of the address (the random catch-all address goes there too). */
  domain: string;
  /** What RCPT TO carries. */
  recipient: string;
  needsSmtpUtf8: boolean;
  /** Also RCPT a random address to detect a catch-all (skipped when the answer is already known). */
  testCatchAll: boolean;
}

export type ProbeVerdict =
  | 'accepted'
  | 'mailbox_not_found'
  | 'mailbox_disabled'
  | 'recipient_rejected'
  | 'mailbox_full'
  | 'blocked_by_server'
  | 'greylisted'
  | 'smtp_timeout'
  | 'smtp_unavailable'
  | 'connection_dropped'
  | 'connection_failed'
  | 'smtp_error'
  | 'tls_failed'
  | 'smtputf8_unsupported'
  | 'blocked_target'
  | 'dns_error'
  | 'mx_host_not_found';

export interface TlsReport {
  offered: boolean;
  used: boolean;
  /** Certificate verified (chain, dates, host name); null when TLS was not used. */
  certificate_valid: boolean | null;
  /** Why it did not verify, or why STARTTLS failed. */
  error: string | null;
}

export interface ProbeResult {
  verdict: ProbeVerdict;
  /** true: a random address was accepted too; false: it was refused; null: not tested or no answer. */
  catchAll: boolean | null;
  /** MX host whose reply decided, and its address. */
  host: string | null;
  address: string | null;
  /** The deciding reply, when there was one. */
  reply: SmtpReply | null;
  tls: TlsReport | null;
  /** A sentence saying what happened. */
  note: string;
  /** TCP connections opened. */
  connections: number;
}

const MAX_HOSTS = 5;
const MAX_ADDRESSES_PER_HOST = 2;
/** Not worth starting a session with less time than this left. */
const MIN_SESSION_MS = 250;

// When every host failed, the failure that says most about the domain is reported.
const FAILURE_RANK: ProbeVerdict[] = [
  'blocked_by_server',
  'greylisted',
  'smtp_timeout',
  'smtp_unavailable',
  'connection_dropped',
  'smtp_error',
  'tls_failed',
  'smtputf8_unsupported',
  'connection_failed',
  'blocked_target',
  'dns_error',
  'mx_host_not_found',
];

type SessionOutcome =
  | { kind: 'rcpt'; verdict: RcptVerdict; reply: SmtpReply; catchAll: boolean | null; tls: TlsReport }
  | { kind: 'refused'; stage: 'banner' | 'helo' | 'mail'; reply: SmtpReply; tls: TlsReport }
  | { kind: 'smtputf8_unsupported'; tls: TlsReport }
  | { kind: 'failed'; error: SmtpSessionError; stage: string; tls: TlsReport };

/** A local part nobody has: 20 random base-32 characters. */
export function randomLocalPart(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return Array.from(randomBytes(20), (b) => alphabet[b % 32]).join('');
}

function describe(reply: SmtpReply): string {
  return `${reply.code}${reply.enhanced ? ` ${reply.enhanced}` : ''} ${replyText(reply)}`.trim();
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface ProberDeps {
  guard: ProbeGuard;
  /** Resolves an MX host through the guard; defaults to guard.resolveAll (the verifier passes a cached one). */
  resolveHost?: (name: string) => Promise<{ address: string; family: 4 | 6 }[]>;
  signal?: AbortSignal | undefined;
  log?: Logger | undefined;
}

export class SmtpProber {
  private connections = 0;
  private readonly deadline: number;
  private readonly guard: ProbeGuard;
  private readonly resolveHost: (name: string) => Promise<{ address: string; family: 4 | 6 }[]>;
  private readonly signal: AbortSignal | undefined;
  private readonly log: Logger | undefined;

  constructor(
    private readonly settings: ProbeSettings,
    deps: ProberDeps,
  ) {
    this.deadline = Date.now() + settings.budgetMs;
    this.guard = deps.guard;
    this.signal = deps.signal;
    this.log = deps.log;
    this.resolveHost = deps.resolveHost ?? ((name) => deps.guard.resolveAll(name, { signal: deps.signal }));
  }

  async probe(req: ProbeRequest): Promise<ProbeResult> {
    let retried = false;
    const failures: ProbeResult[] = [];
    for (const host of req.hosts.slice(0, MAX_HOSTS)) {
      if (this.remaining() < MIN_SESSION_MS) break;
      const addresses = await this.addressesOf(host.name);
      if (!Array.isArray(addresses)) {
        failures.push(addresses);
        continue;
      }
      for (const address of addresses.slice(0, MAX_ADDRESSES_PER_HOST)) {
        if (this.remaining() < MIN_SESSION_MS) break;
        let result = await this.attempt(host.name, address, req);
        if (result.verdict === 'greylisted' && !retried) {
          retried = true;
          const pause = this.settings.greylistRetryMs;
          if (this.remaining() - pause >= Math.min(this.settings.hostTimeoutMs, 2000)) {
            this.log?.debug('temporary SMTP answer; retrying once', { host: host.name, pause_ms: pause });
            await sleep(pause, this.signal);
            result = await this.attempt(host.name, address, req);
          } else {
            result.note += ' There was no time left in the budget to retry.';
          }
        }
        if (isFinal(result.verdict)) return this.done(result);
        failures.push(result);
        // Another address of the same host only helps when this one could not be reached at all.
        if (result.verdict !== 'connection_failed' && result.verdict !== 'blocked_target') break;
      }
    }
    failures.sort((a, b) => FAILURE_RANK.indexOf(a.verdict) - FAILURE_RANK.indexOf(b.verdict));
    const best = failures[0];
    if (best) return this.done(best);
    return this.done(this.result('smtp_timeout', null, null, null, null, 'The time budget for SMTP checks ran out before any mail server answered.'));
  }

  private remaining(): number {
    return this.deadline - Date.now();
  }

  private done(result: ProbeResult): ProbeResult {
    return { ...result, connections: this.connections };
  }

  private result(verdict: ProbeVerdict, host: string | null, address: string | null, reply: SmtpReply | null, tls: TlsReport | null, note: string, catchAll: boolean | null = null): ProbeResult {
    return { verdict, catchAll, host, address, reply, tls, note, connections: 0 };
  }

  /** Guard-checked addresses of an MX host, or the failure to report for it. */
  private async addressesOf(name: string): Promise<string[] | ProbeResult> {
    try {
      const resolved = await this.resolveHost(name);
      // IPv4 first: more mail servers answer on it, and many networks have no IPv6 route.
      return [...resolved].sort((a, b) => a.family - b.family).map((r) => r.address);
    } catch (err) {
      if (this.signal?.aborted) throw err;
      const message = err instanceof Error ? err.message : String(err);
      if ((err as { name?: string }).name === 'BlockedTargetError') return this.result('blocked_target', name, null, null, null, message);
      const code = (err as { code?: unknown }).code;
      const definitive = code === 'ENOTFOUND' || code === 'ENODATA';
      return this.result(definitive ? 'mx_host_not_found' : 'dns_error', name, null, null, null, message);
    }
  }

  /** One session with one address; the TLS handshake failing is retried once without STARTTLS. */
  private async attempt(host: string, address: string, req: ProbeRequest): Promise<ProbeResult> {
    try {
      this.guard.checkAddress(address, host);
    } catch (err) {
      return this.result('blocked_target', host, address, null, null, err instanceof Error ? err.message : String(err));
    }
    let outcome = await this.session(host, address, req, true);
    if (outcome.kind === 'failed' && outcome.error.kind === 'tls' && this.remaining() >= MIN_SESSION_MS) {
      const tlsError = outcome.tls.error;
      outcome = await this.session(host, address, req, false);
      outcome.tls = { ...outcome.tls, offered: true, error: tlsError };
    }
    return this.interpret(host, address, outcome);
  }

  private interpret(host: string, address: string, o: SessionOutcome): ProbeResult {
    const at = `${host} [${address}]`;
    switch (o.kind) {
      case 'rcpt': {
        const verdict: ProbeVerdict =
          o.verdict === 'temporary_failure' ? 'greylisted' : o.verdict === 'protocol_error' ? 'smtp_error' : o.verdict;
        return this.result(verdict, host, address, o.reply, o.tls, `${at} answered RCPT TO with ${describe(o.reply)}.`, o.catchAll);
      }
      case 'refused': {
        const temporary = o.reply.code < 500;
        const stage = o.stage === 'banner' ? 'its greeting' : o.stage === 'helo' ? 'EHLO/HELO' : 'MAIL FROM';
        const verdict: ProbeVerdict = o.stage === 'mail' ? (temporary ? 'greylisted' : 'blocked_by_server') : temporary ? 'smtp_unavailable' : 'blocked_by_server';
        return this.result(verdict, host, address, o.reply, o.tls, `${at} refused at ${stage}: ${describe(o.reply)}.`);
      }
      case 'smtputf8_unsupported':
        return this.result('smtputf8_unsupported', host, address, null, o.tls, `${at} does not offer SMTPUTF8, which this address needs.`);
      case 'failed': {
        const e = o.error;
        if (e.kind === 'aborted') throw this.signal?.reason ?? e;
        const verdict: ProbeVerdict =
          e.kind === 'timeout' ? 'smtp_timeout'
          : e.kind === 'refused' || e.kind === 'unreachable' ? 'connection_failed'
          : e.kind === 'dropped' ? 'connection_dropped'
          : e.kind === 'tls' ? 'tls_failed'
          : 'smtp_error';
        return this.result(verdict, host, address, null, o.tls, `${at}: ${e.message} (${o.stage}).`);
      }
    }
  }

  private async session(host: string, address: string, req: ProbeRequest, allowTls: boolean): Promise<SessionOutcome> {
    const tls: TlsReport = { offered: false, used: false, certificate_valid: null, error: null };
    let stage = 'connect';
    let session: SmtpSession | undefined;
    try {
      const deadline = Math.min(this.deadline, Date.now() + this.settings.hostTimeoutMs);
      this.connections++;
      session = await SmtpSession.connect({ address, port: this.settings.port, deadline, signal: this.signal });
      stage = 'banner';
      const banner = await session.readReply();
      if (banner.code !== 220) return { kind: 'refused', stage: 'banner', reply: banner, tls };

      stage = 'EHLO';
      let greeting = await this.greet(session);
      if (!greeting.ok) return { kind: 'refused', stage: 'helo', reply: greeting.reply, tls };
      tls.offered = greeting.extensions.has('STARTTLS');
      if (tls.offered && allowTls) {
        stage = 'STARTTLS';
        const reply = await session.command('STARTTLS');
        if (reply.code === 220) {
          const outcome: TlsOutcome = await session.startTls(host).catch((err: unknown) => {
            if (err instanceof SmtpSessionError && err.kind === 'tls') tls.error = err.code ?? err.message;
            throw err;
          });
          tls.used = true;
          tls.certificate_valid = outcome.authorized;
          tls.error = outcome.error;
          stage = 'EHLO after STARTTLS';
          greeting = await this.greet(session);
          if (!greeting.ok) return { kind: 'refused', stage: 'helo', reply: greeting.reply, tls };
        } else {
          tls.error = `STARTTLS refused: ${describe(reply)}`;
        }
      }
      if (req.needsSmtpUtf8 && !greeting.extensions.has('SMTPUTF8')) {
        await session.quit();
        return { kind: 'smtputf8_unsupported', tls };
      }

      stage = 'MAIL FROM';
      const mail = await session.command(`MAIL FROM:<${this.settings.mailFrom}>${req.needsSmtpUtf8 ? ' SMTPUTF8' : ''}`);
      if (mail.code < 200 || mail.code >= 300) {
        await session.quit();
        return { kind: 'refused', stage: 'mail', reply: mail, tls };
      }

      stage = 'RCPT TO';
      const rcpt = await session.command(`RCPT TO:<${req.recipient}>`);
      const verdict = classifyRcptReply(rcpt);
      let catchAll: boolean | null = null;
      if (verdict === 'accepted' && req.testCatchAll) {
        stage = 'RCPT TO (catch-all test)';
        const other = classifyRcptReply(await session.command(`RCPT TO:<${randomLocalPart()}@${req.domain}>`));
        catchAll = other === 'accepted' ? true : other === 'mailbox_not_found' || other === 'recipient_rejected' || other === 'mailbox_disabled' ? false : null;
      }
      stage = 'RSET';
      await session.command('RSET').catch(() => undefined);
      await session.quit();
      return { kind: 'rcpt', verdict, reply: rcpt, catchAll, tls };
    } catch (err) {
      if (err instanceof SmtpSessionError) return { kind: 'failed', error: err, stage, tls };
      throw err;
    } finally {
      session?.close();
    }
  }

  /** EHLO, falling back to HELO (RFC 5321 §3.2); the extensions the server offers. */
  private async greet(session: SmtpSession): Promise<{ ok: true; extensions: Set<string> } | { ok: false; reply: SmtpReply }> {
    const ehlo = await session.command(`EHLO ${this.settings.heloName}`);
    if (ehlo.code === 250) {
      const extensions = new Set(ehlo.lines.slice(1).map((l) => (l.trim().split(/\s+/)[0] ?? '').toUpperCase()));
      return { ok: true, extensions };
    }
    if (ehlo.code === 421) return { ok: false, reply: ehlo };
    const helo = await session.command(`HELO ${this.settings.heloName}`);
    return helo.code === 250 ? { ok: true, extensions: new Set() } : { ok: false, reply: helo };
  }
}

function isFinal(verdict: ProbeVerdict): boolean {
  return (
    verdict === 'accepted' ||
    verdict === 'mailbox_not_found' ||
    verdict === 'mailbox_disabled' ||
    verdict === 'recipient_rejected' ||
    verdict === 'mailbox_full' ||
    verdict === 'greylisted' ||
    // A policy refusal of MAIL FROM or RCPT TO would be the same at the next MX: do not shop around.
    verdict === 'blocked_by_server'
  );
}
