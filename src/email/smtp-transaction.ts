// The start of a probing SMTP session, shared by a one-off probe and a pooled session that asks about
// many recipients: connect, banner, EHLO (HELO fallback), STARTTLS when offered, MAIL FROM. What comes
// back is either a session ready for RCPT TO or the outcome that ended it early.
import { randomBytes } from 'node:crypto';
import { SmtpSession, SmtpSessionError, type TlsOutcome } from './smtp-client.js';
import { classifyRcptReply, replyText, type RcptVerdict, type SmtpReply } from './smtp-reply.js';

export interface TransactionSettings {
  port: number;
  heloName: string;
  mailFrom: string;
}

export interface TlsReport {
  offered: boolean;
  used: boolean;
  /** Certificate verified (chain, dates, host name); null when TLS was not used. */
  certificate_valid: boolean | null;
  /** Why it did not verify, or why STARTTLS failed. */
  error: string | null;
}

export type SessionOutcome =
  | { kind: 'rcpt'; verdict: RcptVerdict; reply: SmtpReply; catchAll: boolean | null; tls: TlsReport }
  | { kind: 'refused'; stage: 'banner' | 'helo' | 'mail'; reply: SmtpReply; tls: TlsReport }
  | { kind: 'smtputf8_unsupported'; tls: TlsReport }
  | { kind: 'failed'; error: SmtpSessionError; stage: string; tls: TlsReport };

export type OpenOutcome = { kind: 'open'; session: SmtpSession; tls: TlsReport } | Exclude<SessionOutcome, { kind: 'rcpt' }>;

export interface OpenOptions {
  host: string;
  address: string;
  needsSmtpUtf8: boolean;
  allowTls: boolean;
  deadline: number;
  signal?: AbortSignal | undefined;
}

export function describeReply(reply: SmtpReply): string {
  return `${reply.code}${reply.enhanced ? ` ${reply.enhanced}` : ''} ${replyText(reply)}`.trim();
}

/** A local part nobody has: 20 random base-32 characters. */
export function randomLocalPart(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return Array.from(randomBytes(20), (b) => alphabet[b % 32]).join('');
}

/** Opens a session up to an accepted MAIL FROM; on any other outcome the session is already closed. */
export async function openMailTransaction(settings: TransactionSettings, o: OpenOptions): Promise<OpenOutcome> {
  const tls: TlsReport = { offered: false, used: false, certificate_valid: null, error: null };
  let stage = 'connect';
  let session: SmtpSession | undefined;
  let open = false;
  try {
    session = await SmtpSession.connect({ address: o.address, port: settings.port, deadline: o.deadline, signal: o.signal });
    stage = 'banner';
    const banner = await session.readReply();
    if (banner.code !== 220) return { kind: 'refused', stage: 'banner', reply: banner, tls };

    stage = 'EHLO';
    let greeting = await greet(session, settings.heloName);
    if (!greeting.ok) return { kind: 'refused', stage: 'helo', reply: greeting.reply, tls };
    tls.offered = greeting.extensions.has('STARTTLS');
    if (tls.offered && o.allowTls) {
      stage = 'STARTTLS';
      const reply = await session.command('STARTTLS');
      if (reply.code === 220) {
        const outcome: TlsOutcome = await session.startTls(o.host).catch((err: unknown) => {
          if (err instanceof SmtpSessionError && err.kind === 'tls') tls.error = err.code ?? err.message;
          throw err;
        });
        tls.used = true;
        tls.certificate_valid = outcome.authorized;
        tls.error = outcome.error;
        stage = 'EHLO after STARTTLS';
        greeting = await greet(session, settings.heloName);
        if (!greeting.ok) return { kind: 'refused', stage: 'helo', reply: greeting.reply, tls };
      } else {
        tls.error = `STARTTLS refused: ${describeReply(reply)}`;
      }
    }
    if (o.needsSmtpUtf8 && !greeting.extensions.has('SMTPUTF8')) {
      await session.quit();
      return { kind: 'smtputf8_unsupported', tls };
    }

    stage = 'MAIL FROM';
    const mail = await session.command(`MAIL FROM:<${settings.mailFrom}>${o.needsSmtpUtf8 ? ' SMTPUTF8' : ''}`);
    if (mail.code < 200 || mail.code >= 300) {
      await session.quit();
      return { kind: 'refused', stage: 'mail', reply: mail, tls };
    }
    open = true;
    return { kind: 'open', session, tls };
  } catch (err) {
    if (err instanceof SmtpSessionError) return { kind: 'failed', error: err, stage, tls };
    throw err;
  } finally {
    if (!open) session?.close();
  }
}

/** RCPT TO the recipient; when it is accepted and asked, a random address at its domain too. */
export async function askRecipient(
  session: SmtpSession,
  recipient: string,
  catchAllDomain: string | null,
): Promise<{ verdict: RcptVerdict; reply: SmtpReply; catchAll: boolean | null }> {
  const reply = await session.command(`RCPT TO:<${recipient}>`);
  const verdict = classifyRcptReply(reply);
  let catchAll: boolean | null = null;
  if (verdict === 'accepted' && catchAllDomain !== null) catchAll = await testCatchAll(session, catchAllDomain);
  return { verdict, reply, catchAll };
}

/** true: a random address at the domain is accepted too; false: refused; null: no clear answer. */
export async function testCatchAll(session: SmtpSession, domain: string): Promise<boolean | null> {
  const other = classifyRcptReply(await session.command(`RCPT TO:<${randomLocalPart()}@${domain}>`));
  return other === 'accepted' ? true : other === 'mailbox_not_found' || other === 'recipient_rejected' || other === 'mailbox_disabled' ? false : null;
}

/** EHLO, falling back to HELO (RFC 5321 §3.2); the extensions the server offers. */
async function greet(session: SmtpSession, heloName: string): Promise<{ ok: true; extensions: Set<string> } | { ok: false; reply: SmtpReply }> {
  const ehlo = await session.command(`EHLO ${heloName}`);
  if (ehlo.code === 250) {
    const extensions = new Set(ehlo.lines.slice(1).map((l) => (l.trim().split(/\s+/)[0] ?? '').toUpperCase()));
    return { ok: true, extensions };
  }
  if (ehlo.code === 421) return { ok: false, reply: ehlo };
  const helo = await session.command(`HELO ${heloName}`);
  return helo.code === 250 ? { ok: true, extensions: new Set() } : { ok: false, reply: helo };
}
