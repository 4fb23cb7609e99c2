// The SMTP probe: asks a domain's mail servers, in MX preference order, whether they would take mail for
// an address, without sending any. One session per attempt (or a place in a shared one, see
// smtp-session-pool.ts): banner, EHLO (HELO fallback), STARTTLS when offered, MAIL FROM, RCPT TO the
// address and then a random address at the same domain (a catch-all accepts both), RSET, QUIT. Every address is checked by the network guard before connecting; each
// session has its own deadline and all of them share one budget; a temporary answer is retried once.
import type { Logger } from '../logger.js';
import type { MailHost } from './mail-route.js';
import { SmtpSessionError } from './smtp-client.js';
import type { SmtpReply } from './smtp-reply.js';
import type { SmtpSessionPool } from './smtp-session-pool.js';
import { askRecipient, describeReply as describe, openMailTransaction, type SessionOutcome, type TlsReport } from './smtp-transaction.js';

export { randomLocalPart, type TlsReport } from './smtp-transaction.js';

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
  /** Shared sessions per mail server (batches); without it every attempt opens its own session. */
  pool?: SmtpSessionPool | undefined;
}

export class SmtpProber {
  private connections = 0;
  private readonly deadline: number;
  private readonly guard: ProbeGuard;
  private readonly resolveHost: (name: string) => Promise<{ address: string; family: 4 | 6 }[]>;
  private readonly signal: AbortSignal | undefined;
  private readonly log: Logger | undefined;
  private readonly pool: SmtpSessionPool | undefined;

  constructor(
    private readonly settings: ProbeSettings,
    deps: ProberDeps,
  ) {
    this.deadline = Date.now() + settings.budgetMs;
    this.guard = deps.guard;
    this.signal = deps.signal;
    this.log = deps.log;
    this.pool = deps.pool;
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

  private result(
    verdict: ProbeVerdict,
    host: string | null,
    address: string | null,
    reply: SmtpReply | null,
    tls: TlsReport | null,
    note: string,
    catchAll: boolean | null = null,
  ): ProbeResult {
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
        const verdict: ProbeVerdict = o.verdict === 'temporary_failure' ? 'greylisted' : o.verdict === 'protocol_error' ? 'smtp_error' : o.verdict;
        return this.result(verdict, host, address, o.reply, o.tls, `${at} answered RCPT TO with ${describe(o.reply)}.`, o.catchAll);
      }
      case 'refused': {
        const temporary = o.reply.code < 500;
        const stage = o.stage === 'banner' ? 'its greeting' : o.stage === 'helo' ? 'EHLO/HELO' : 'MAIL FROM';
        const verdict: ProbeVerdict =
          o.stage === 'mail' ? (temporary ? 'greylisted' : 'blocked_by_server') : temporary ? 'smtp_unavailable' : 'blocked_by_server';
        return this.result(verdict, host, address, o.reply, o.tls, `${at} refused at ${stage}: ${describe(o.reply)}.`);
      }
      case 'smtputf8_unsupported':
        return this.result('smtputf8_unsupported', host, address, null, o.tls, `${at} does not offer SMTPUTF8, which this address needs.`);
      case 'failed': {
        const e = o.error;
        if (e.kind === 'aborted') throw this.signal?.reason ?? e;
        const verdict: ProbeVerdict =
          e.kind === 'timeout'
            ? 'smtp_timeout'
            : e.kind === 'refused' || e.kind === 'unreachable'
              ? 'connection_failed'
              : e.kind === 'dropped'
                ? 'connection_dropped'
                : e.kind === 'tls'
                  ? 'tls_failed'
                  : 'smtp_error';
        return this.result(verdict, host, address, null, o.tls, `${at}: ${e.message} (${o.stage}).`);
      }
    }
  }

  private async session(host: string, address: string, req: ProbeRequest, allowTls: boolean): Promise<SessionOutcome> {
    const deadline = Math.min(this.deadline, Date.now() + this.settings.hostTimeoutMs);
    if (this.pool) {
      // Queued behind other recipients of this server for at most the whole budget, not one session's time.
      return this.pool.ask({
        host,
        address,
        recipient: req.recipient,
        domain: req.domain,
        needsSmtpUtf8: req.needsSmtpUtf8,
        allowTls,
        testCatchAll: req.testCatchAll,
        deadline: this.deadline,
        signal: this.signal,
      });
    }
    this.connections++;
    const opened = await openMailTransaction(this.settings, { host, address, needsSmtpUtf8: req.needsSmtpUtf8, allowTls, deadline, signal: this.signal });
    if (opened.kind !== 'open') return opened;
    const { session, tls } = opened;
    try {
      const answer = await askRecipient(session, req.recipient, req.testCatchAll ? req.domain : null);
      await session.command('RSET').catch(() => undefined);
      await session.quit();
      return { kind: 'rcpt', ...answer, tls };
    } catch (err) {
      if (err instanceof SmtpSessionError) return { kind: 'failed', error: err, stage: 'RCPT TO', tls };
      throw err;
    } finally {
      session.close();
    }
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
