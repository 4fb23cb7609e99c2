// Outgoing mail for the lead service: through SMTP_URL when set, otherwise written as .eml files into
// DATA_DIR/outbox so a fresh install works without a mail server (the operator reads the files).
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { randomId } from './ids.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Where mail goes, for logs: "smtp://host:port" or the outbox directory. */
  readonly destination: string;
  send(message: MailMessage): Promise<{ messageId: string }>;
  close(): void;
}

export function createMailer(opts: { smtpUrl: string | undefined; outboxDir: string; from: string }): Mailer {
  if (opts.smtpUrl) return smtpMailer(opts.smtpUrl, opts.from);
  return outboxMailer(opts.outboxDir, opts.from);
}

function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  const url = new URL(smtpUrl);
  return {
    destination: `${url.protocol}//${url.host}`,
    async send(m) {
      const info = await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text });
      return { messageId: String(info.messageId) };
    },
    close: () => transport.close(),
  };
}

function outboxMailer(dir: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    destination: dir,
    async send(m) {
      const info = await transport.sendMail({ from, to: m.to, subject: m.subject, text: m.text });
      await fs.mkdir(dir, { recursive: true });
      // Sortable by time, unique per message; written whole then renamed so readers never see half a file.
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomId('mail', 6)}.eml`;
      const tmp = path.join(dir, `.${name}.tmp`);
      await fs.writeFile(tmp, info.message as Buffer, { mode: 0o600 });
      await fs.rename(tmp, path.join(dir, name));
      return { messageId: String(info.messageId) };
    },
    close: () => transport.close(),
  };
}
