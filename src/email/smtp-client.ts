// A deliberately small SMTP client for probing: one connection, one command at a time (no pipelining),
// multi-line replies, STARTTLS. It never sends DATA. The caller connects to an address the network guard
// has already approved; this module only speaks the protocol and enforces one deadline for the session.
import net from 'node:net';
import tls from 'node:tls';
import { parseReply, type SmtpReply } from './smtp-reply.js';

/** Why a session ended early. */
export type SmtpFailureKind = 'timeout' | 'refused' | 'unreachable' | 'dropped' | 'protocol' | 'tls' | 'aborted';

export class SmtpSessionError extends Error {
  constructor(
    readonly kind: SmtpFailureKind,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'SmtpSessionError';
  }
}

export interface SmtpConnectOptions {
  /** IP address to connect to (already checked by the network guard). */
  address: string;
  port: number;
  /** The whole session (connect, banner, every command) must end by then. */
  deadline: number;
  signal?: AbortSignal | undefined;
}

export interface TlsOutcome {
  /** Whether the certificate chain, dates and host name verified. The probe goes on either way. */
  authorized: boolean;
  /** OpenSSL/Node code when it did not (e.g. DEPTH_ZERO_SELF_SIGNED_CERT), else null. */
  error: string | null;
  protocol: string | null;
}

// One client TLS context for every probe: building one per connection reloads the root store each time.
let sharedTlsContext: tls.SecureContext | undefined;
function clientTlsContext(): tls.SecureContext {
  sharedTlsContext ??= tls.createSecureContext({ minVersion: 'TLSv1.2' });
  return sharedTlsContext;
}

// Closing is routine; one shared reason avoids capturing a stack trace per session.
const CLOSED_BY_CLIENT = new SmtpSessionError('aborted', 'closed by the client');

// Bounds on what a hostile server can make us buffer.
const MAX_LINE_BYTES = 4096;
const MAX_REPLY_LINES = 64;

type Waiter = { resolve(reply: SmtpReply): void; reject(err: Error): void };

export class SmtpSession {
  private socket: net.Socket;
  private buffer: Buffer = Buffer.alloc(0);
  private pendingLines: string[] = [];
  private readonly replies: SmtpReply[] = [];
  private waiter: Waiter | null = null;
  private failure: SmtpSessionError | null = null;
  private timer: NodeJS.Timeout;
  private readonly onAbort: () => void;

  private constructor(
    socket: net.Socket,
    private readonly opts: SmtpConnectOptions,
  ) {
    this.socket = socket;
    this.attach(socket);
    this.timer = setTimeout(
      () => this.fail(new SmtpSessionError('timeout', 'the mail server did not answer in time')),
      Math.max(0, opts.deadline - Date.now()),
    );
    this.onAbort = () => this.fail(new SmtpSessionError('aborted', 'the verification was cancelled'));
    opts.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Opens the TCP connection. Rejects with SmtpSessionError (refused, unreachable, timeout, aborted). */
  static connect(opts: SmtpConnectOptions): Promise<SmtpSession> {
    return new Promise((resolve, reject) => {
      if (opts.signal?.aborted) {
        reject(new SmtpSessionError('aborted', 'the verification was cancelled'));
        return;
      }
      const socket = net.connect({ host: opts.address, port: opts.port, noDelay: true });
      const session = new SmtpSession(socket, opts);
      const onConnect = () => {
        session.connectFailed = null;
        resolve(session);
      };
      session.connectFailed = reject;
      socket.once('connect', onConnect);
    });
  }

  /** Set while the TCP connect is in flight: failures go to connect()'s promise. */
  private connectFailed: ((err: SmtpSessionError) => void) | null = null;

  private attach(socket: net.Socket): void {
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (err: NodeJS.ErrnoException) => this.fail(fromSocketError(err)));
    socket.on('close', () => this.fail(new SmtpSessionError('dropped', 'the mail server closed the connection')));
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    let newline: number;
    while ((newline = this.buffer.indexOf(0x0a)) >= 0) {
      const line = this.buffer.subarray(0, newline).toString('utf8').replace(/\r$/, '');
      this.buffer = this.buffer.subarray(newline + 1);
      this.onLine(line);
      if (this.failure) return;
    }
    if (this.buffer.length > MAX_LINE_BYTES) this.fail(new SmtpSessionError('protocol', 'the mail server sent an over-long line'));
  }

  private onLine(line: string): void {
    if (!/^[2-5]\d\d(?:[ -]|$)/.test(line)) {
      this.fail(new SmtpSessionError('protocol', `the mail server sent something that is not an SMTP reply: "${line.slice(0, 80)}"`));
      return;
    }
    this.pendingLines.push(line);
    if (this.pendingLines.length > MAX_REPLY_LINES) {
      this.fail(new SmtpSessionError('protocol', 'the mail server sent an over-long reply'));
      return;
    }
    if (line[3] === '-') return;
    const reply = parseReply(this.pendingLines);
    this.pendingLines = [];
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = null;
      waiter.resolve(reply);
    } else {
      this.replies.push(reply);
    }
  }

  /**
   * Moves the session's deadline (a shared session serving many recipients gives each its own time
   * instead of one for the whole session). No effect once the session has failed.
   */
  extendDeadline(deadline: number): void {
    if (this.failure) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fail(new SmtpSessionError('timeout', 'the mail server did not answer in time')), Math.max(0, deadline - Date.now()));
  }

  private fail(err: SmtpSessionError): void {
    if (this.failure) return;
    this.failure = err;
    clearTimeout(this.timer);
    this.opts.signal?.removeEventListener('abort', this.onAbort);
    this.socket.destroy();
    const connectFailed = this.connectFailed;
    this.connectFailed = null;
    connectFailed?.(err);
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.reject(err);
  }

  /** The next complete reply (the banner first). */
  readReply(): Promise<SmtpReply> {
    const queued = this.replies.shift();
    if (queued) return Promise.resolve(queued);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  /** Sends one command line and reads its reply. */
  async command(line: string): Promise<SmtpReply> {
    if (this.failure) throw this.failure;
    if (/[\r\n]/.test(line)) throw new SmtpSessionError('protocol', 'a command may not contain a line break');
    this.socket.write(`${line}\r\n`, 'utf8');
    return this.readReply();
  }

  /**
   * Upgrades the connection after the server's 220 to STARTTLS. Certificate problems do not stop the
   * probe (a verifier sends no mail); they are reported. A failed handshake ends the session.
   */
  startTls(servername: string): Promise<TlsOutcome> {
    if (this.failure) return Promise.reject(this.failure);
    // RFC 3207 §6: anything the server sent before the handshake is discarded (STARTTLS injection).
    this.buffer = Buffer.alloc(0);
    this.pendingLines = [];
    this.replies.length = 0;
    const raw = this.socket;
    raw.removeAllListeners('data');
    raw.removeAllListeners('close');
    raw.removeAllListeners('error');
    return new Promise((resolve, reject) => {
      const secure = tls.connect({
        socket: raw,
        servername: net.isIP(servername) ? undefined : servername,
        rejectUnauthorized: false,
        secureContext: clientTlsContext(),
      });
      this.socket = secure;
      const onHandshakeError = (err: NodeJS.ErrnoException) => {
        // A deadline or an abort that struck first is the real reason.
        this.fail(new SmtpSessionError('tls', `the TLS handshake failed: ${err.message}`, err.code));
        reject(this.failure);
      };
      const onEarlyClose = () => onHandshakeError(Object.assign(new Error('connection closed during the handshake'), { code: 'ECONNRESET' }));
      secure.once('error', onHandshakeError);
      // A deadline or abort during the handshake lands in fail(), which destroys the socket.
      secure.once('close', onEarlyClose);
      secure.once('secureConnect', () => {
        secure.off('error', onHandshakeError);
        secure.off('close', onEarlyClose);
        this.attach(secure);
        const error = secure.authorizationError;
        resolve({
          authorized: secure.authorized,
          error: secure.authorized ? null : String(error ?? 'UNKNOWN_CERT_ERROR'),
          protocol: secure.getProtocol(),
        });
      });
    });
  }

  /** Says goodbye politely but never waits long for it; always closes the socket. */
  async quit(): Promise<void> {
    if (!this.failure) {
      try {
        await Promise.race([this.command('QUIT'), new Promise((r) => setTimeout(r, 500))]);
      } catch {
        // The server hung up first: nothing left to say.
      }
    }
    this.close();
  }

  close(): void {
    if (!this.failure) this.fail(CLOSED_BY_CLIENT);
  }
}

function fromSocketError(err: NodeJS.ErrnoException): SmtpSessionError {
  switch (err.code) {
    case 'ECONNREFUSED':
      return new SmtpSessionError('refused', 'the mail server refused the connection', err.code);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
      return new SmtpSessionError('unreachable', 'the mail server is unreachable', err.code);
    case 'ETIMEDOUT':
      return new SmtpSessionError('timeout', 'the connection to the mail server timed out', err.code);
    default:
      return new SmtpSessionError('dropped', `the connection to the mail server failed: ${err.message}`, err.code);
  }
}
