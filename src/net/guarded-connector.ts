// An undici connector that asks the guard before every connection and connects to exactly the address the
// guard checked (so DNS cannot answer differently between the check and the connect). Literal IP hosts,
// for which no lookup would ever run, are checked too. TLS keeps the host name for SNI and the certificate
// check while the TCP connection goes to the pinned IP.
import net, { type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import tls, { type TLSSocket } from 'node:tls';
import type { buildConnector } from 'undici';
import { ConnectError, TlsCertificateError } from './errors.js';
import type { NetGuard, ResolvedAddress } from './guard.js';
import { tlsReportOf, type TlsReport } from './tls-report.js';
import type { AbortLike } from './deadline.js';

export type ConnectPhase = 'dns' | 'connect' | 'tls' | 'ready' | 'failed';

/** One connection attempt, updated as it progresses (the object passed to onAttempt is live). */
export interface ConnectionAttempt {
  protocol: string;
  hostname: string;
  port: number;
  phase: ConnectPhase;
  /** The pinned address, once known. */
  address: string | null;
  /** Milliseconds; null for a phase that did not happen (no DNS for a literal IP, no TLS for http). */
  dnsMs: number | null;
  connectMs: number | null;
  tlsMs: number | null;
  /** The server certificate as seen in the handshake, valid or not (https only). */
  tls: TlsReport | null;
  error: Error | null;
  /** performance.now() when the connection became usable (for time-to-first-byte). */
  readyAt: number | null;
}

export interface GuardedConnectorOptions {
  guard: NetGuard;
  /** Trusted CA certificates (PEM); undefined keeps Node's defaults. */
  ca?: string[] | undefined;
  /** Aborts a connection in progress (undici itself cannot cancel a connector). */
  signal?: AbortLike | undefined;
  /** Bound on the TCP connect plus the TLS handshake. Default 10 s. */
  connectTimeoutMs?: number;
  onAttempt?(attempt: ConnectionAttempt): void;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

export function createGuardedConnector(opts: GuardedConnectorOptions): buildConnector.connector {
  return (options, callback) => {
    const hostname = stripBrackets(options.hostname).replace(/\.$/, '');
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    const attempt: ConnectionAttempt = {
      protocol: options.protocol,
      hostname,
      port,
      phase: 'dns',
      address: null,
      dnsMs: null,
      connectMs: null,
      tlsMs: null,
      tls: null,
      error: null,
      readyAt: null,
    };
    opts.onAttempt?.(attempt);
    openConnection(attempt, opts).then(
      (socket) => {
        attempt.phase = 'ready';
        attempt.readyAt = performance.now();
        callback(null, socket);
      },
      (err: unknown) => {
        const error = err instanceof Error ? err : new Error(String(err));
        attempt.error = error;
        attempt.phase = 'failed';
        callback(error, null);
      },
    );
  };
}

async function openConnection(attempt: ConnectionAttempt, opts: GuardedConnectorOptions): Promise<Socket> {
  const { guard, signal } = opts;
  if (signal?.aborted) throw signal.reason;
  const deadline = performance.now() + (opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
  let target = guard.checkLiteralHost(attempt.hostname);
  if (!target) {
    const started = performance.now();
    target = await guard.resolve(attempt.hostname, { signal });
    attempt.dnsMs = elapsed(started);
  }
  attempt.address = target.address;

  attempt.phase = 'connect';
  const connectStarted = performance.now();
  const socket = await tcpConnect(target, attempt.port, signal, deadline);
  attempt.connectMs = elapsed(connectStarted);
  if (attempt.protocol !== 'https:') return socket;

  attempt.phase = 'tls';
  const tlsStarted = performance.now();
  const secure = await tlsHandshake(socket, attempt, opts.ca, signal, deadline);
  attempt.tlsMs = elapsed(tlsStarted);
  attempt.tls = tlsReportOf(secure);
  if (!attempt.tls.valid) {
    secure.destroy();
    const code = attempt.tls.error ?? 'UNVERIFIED';
    throw new TlsCertificateError(code, `TLS certificate of ${attempt.hostname} is not valid: ${code}`);
  }
  return secure;
}

function tcpConnect(target: ResolvedAddress, port: number, signal: AbortLike | undefined, deadline: number): Promise<Socket> {
  const socket = net.connect({ host: target.address, port, family: target.family, noDelay: true });
  return settle(socket, 'connect', signal, deadline, (err) => {
    const code = (err as NodeJS.ErrnoException).code ?? 'ECONNECT';
    return new ConnectError(
      `${describeConnectCode(code)} connecting to ${formatHostPort(target.address, port)} (${code})`,
      'connect',
      code,
      target.address,
      port,
      { cause: err },
    );
  });
}

function tlsHandshake(
  socket: Socket,
  attempt: ConnectionAttempt,
  ca: string[] | undefined,
  signal: AbortLike | undefined,
  deadline: number,
): Promise<TLSSocket> {
  const isLiteral = net.isIP(attempt.hostname) !== 0;
  // Verification is done by us after the handshake (tlsReportOf) so a bad certificate can still be
  // described; an unverified socket is destroyed before any request is written to it. No session is
  // reused, so the host name check (skipped by Node on resumed sessions) always runs.
  const secure = tls.connect({
    socket,
    host: attempt.hostname,
    servername: isLiteral ? undefined : attempt.hostname,
    ca,
    rejectUnauthorized: false,
    ALPNProtocols: ['http/1.1'],
  });
  return settle(secure, 'secureConnect', signal, deadline, (err) => {
    const code = (err as NodeJS.ErrnoException).code ?? 'ETLS';
    // OpenSSL errors carry a short `reason` ("wrong version number"); the message is a raw error-stack line.
    const reason = (err as { reason?: unknown }).reason;
    const text = typeof reason === 'string' && reason !== '' ? reason : err.message;
    return new ConnectError(
      `TLS handshake with ${formatHostPort(attempt.address ?? attempt.hostname, attempt.port)} failed: ${text} (${code})`,
      'tls',
      code,
      attempt.address ?? '',
      attempt.port,
      { cause: err },
    );
  });
}

/** Resolves when `event` fires; rejects on error, abort or deadline, destroying the socket. */
function settle<S extends Socket>(
  socket: S,
  event: 'connect' | 'secureConnect',
  signal: AbortLike | undefined,
  deadline: number,
  wrap: (err: Error) => Error,
): Promise<S> {
  return new Promise<S>((resolve, reject) => {
    const cleanup = () => {
      clearTimeout(timer);
      socket.off(event, onReady);
      socket.off('error', onError);
      signal?.removeEventListener('abort', onAbort);
    };
    const fail = (err: Error) => {
      cleanup();
      socket.destroy();
      reject(err);
    };
    const onReady = () => {
      cleanup();
      resolve(socket);
    };
    const onError = (err: Error) => fail(wrap(err));
    const onAbort = () => fail(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    const timer = setTimeout(
      () => {
        const e = Object.assign(new Error('connection timed out'), { code: 'ETIMEDOUT' });
        fail(wrap(e));
      },
      Math.max(0, deadline - performance.now()),
    );
    socket.once(event, onReady);
    socket.once('error', onError);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
  });
}

function describeConnectCode(code: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'Connection refused';
    case 'ETIMEDOUT':
      return 'Connection timed out';
    case 'EHOSTUNREACH':
      return 'Host unreachable';
    case 'ENETUNREACH':
      return 'Network unreachable';
    case 'ECONNRESET':
      return 'Connection reset';
    default:
      return 'Connection failed';
  }
}

function formatHostPort(address: string, port: number): string {
  return net.isIPv6(address) ? `[${address}]:${port}` : `${address}:${port}`;
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function elapsed(since: number): number {
  return Math.round((performance.now() - since) * 100) / 100;
}
