// Harness for lead-service tests: a real in-process SMTP server that captures mail, a loopback webhook
// receiver, a lead service started on an ephemeral port with a throw-away DATA_DIR, and the whole
// registration dance (register → read the link from the mail → follow it → read the key from the mail).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import type { Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startLeadsService, type RunningLeadsService, type StartLeadsOptions } from '../../src/leads/service.js';
import { startLocalServer, type LocalServer } from './local-http.js';
import { createTestSchema } from './postgres.js';
import { testConfig } from './tool-context.js';

export interface CapturedMail {
  from: string;
  to: string[];
  subject: string;
  /** Decoded text body. */
  text: string;
  raw: string;
}

export interface MailCatcher {
  url: string;
  messages: CapturedMail[];
  /** Waits for a message matching `match` (bounded; fails the test with a clear message if none arrives). */
  waitFor(match: (m: CapturedMail) => boolean, what: string, timeoutMs?: number): Promise<CapturedMail>;
  close(): Promise<void>;
}

function decodeQuotedPrintable(s: string): string {
  const bytes = Buffer.from(
    s.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
    'latin1',
  );
  return bytes.toString('utf8');
}

/** Enough MIME for nodemailer's single-part text messages. */
export function parseMail(raw: string, from: string, to: string[]): CapturedMail {
  const split = raw.search(/\r?\n\r?\n/);
  const headerText = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(headerText)?.[1]?.trim() ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text = encoding === 'quoted-printable' ? decodeQuotedPrintable(body) : encoding === 'base64' ? Buffer.from(body, 'base64').toString('utf8') : body;
  return { from, to, subject: header('Subject'), text: text.replace(/\r\n/g, '\n'), raw };
}

export async function startMailCatcher(): Promise<MailCatcher> {
  const messages: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        messages.push(
          parseMail(
            Buffer.concat(chunks).toString('utf8'),
            from,
            session.envelope.rcptTo.map((r) => r.address),
          ),
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(match, what, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail arrived: ${what} (got ${messages.length}: ${messages.map((m) => m.subject).join(' | ')})`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface ReceivedHook {
  headers: IncomingMessage['headers'];
  body: string;
}

export interface WebhookReceiver {
  server: LocalServer;
  url: string;
  received: ReceivedHook[];
  close(): Promise<void>;
}

/** Answers each webhook with `status(n)` for the n-th call (1-based); default always 200. */
export async function startWebhookReceiver(status: (n: number) => number = () => 200): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const server = await startLocalServer({
    handler: (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.statusCode = status(received.length);
        res.end();
      });
    },
  });
  return { server, url: `${server.origin}/hooks/leads`, received, close: () => server.close() };
}

export interface LeadsUnderTest {
  svc: RunningLeadsService;
  config: Config;
  mail: MailCatcher;
  url: string;
  close(): Promise<void>;
}

/** The lead store adapters a suite can run against (see `store` below). */
export const LEAD_STORES = ['sqlite', 'postgres'] as const;

/**
 * A lead service on 127.0.0.1:0 with a fresh DATA_DIR, mail to a catcher, loopback webhooks allowed.
 * `store: 'postgres'` puts it on a PostgreSQL schema of its own (DATABASE_URL), dropped on close.
 */
export async function startLeadsForTest(
  opts: { env?: Record<string, string>; overrides?: StartLeadsOptions['overrides']; store?: (typeof LEAD_STORES)[number] } = {},
): Promise<LeadsUnderTest> {
  const schema = opts.store === 'postgres' ? await createTestSchema() : undefined;
  const mail = await startMailCatcher();
  const config = testConfig({
    HOST: '127.0.0.1',
    LEADS_PORT: '0',
    SMTP_URL: mail.url,
    NETWORK_ALLOWLIST: '127.0.0.0/8',
    LEADS_MAIL_FROM: 'leads@agent-utility.test',
    ...schema?.env,
    ...opts.env,
  });
  const svc = await startLeadsService({
    config,
    log: createLogger(config.logLevel),
    port: 0,
    overrides: {
      ...opts.overrides,
      dispatcher: { baseBackoffMs: 20, maxBackoffMs: 200, pollIntervalMs: 50, ...opts.overrides?.dispatcher },
    },
  }).catch(async (err: unknown) => {
    await mail.close();
    await schema?.drop();
    throw err;
  });
  return {
    svc,
    config,
    mail,
    url: svc.url,
    async close() {
      await svc.close();
      await mail.close();
      await schema?.drop();
    },
  };
}

export async function api(
  baseUrl: string,
  method: string,
  path: string,
  opts: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${baseUrl}${path}`, { method, headers, ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** Registers `email`, follows the link from the verification mail, and returns the key from the key mail. */
export async function registerKey(t: LeadsUnderTest, email: string): Promise<string> {
  const before = t.mail.messages.length;
  const reg = await api(t.url, 'POST', '/v1/register', { body: { email } });
  if (reg.status !== 202) throw new Error(`register answered ${reg.status}: ${JSON.stringify(reg.body)}`);
  const isNew = (m: CapturedMail) => t.mail.messages.indexOf(m) >= before && m.to.includes(email);
  const verification = await t.mail.waitFor((m) => isNew(m) && /confirm/i.test(m.subject), `verification mail to ${email}`);
  const link = /https?:\/\/\S+\/v1\/register\/verify\?token=\S+/.exec(verification.text)?.[0];
  if (!link) throw new Error(`no link in verification mail:\n${verification.text}`);
  const verified = await fetch(link, { headers: { accept: 'application/json' } });
  if (verified.status !== 200) throw new Error(`verify answered ${verified.status}: ${await verified.text()}`);
  const keyMail = await t.mail.waitFor((m) => isNew(m) && /API key/.test(m.subject), `key mail to ${email}`);
  const key = extractKey(keyMail.text);
  if (!key) throw new Error('no key in key mail');
  return key;
}

export function extractKey(text: string): string | undefined {
  return /\blk_[A-Za-z0-9_-]{20,}/.exec(text)?.[0];
}
