// The forward proxy Chromium sends every connection through (HTTP CONNECT for https/wss, absolute-form
// requests for plain http). For each connection it resolves the host once through the network guard,
// refuses blocked addresses, and connects to exactly the address it checked, so DNS rebinding between
// check and connect is impossible and no page can reach a private address, whatever it loads.
// It listens on loopback, where any local process could use it as an open proxy (and reach whatever the
// allowlist opens): every request must carry Proxy-Authorization with a secret made at start, which only
// the browser pool is given.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { ToolError } from '../errors.js';
import type { Logger } from '../logger.js';
import { classifyAddress } from '../net/address-policy.js';
import type { ResolvedAddress } from '../net/guard.js';

/** The part of NetGuard the proxy needs: resolve a host to one checked address, or throw. */
export interface AddressGuard {
  resolve(host: string): Promise<ResolvedAddress>;
}

/** Header the proxy puts on answers it makes itself, so a refused navigation can be told apart. */
export const PROXY_VERDICT_HEADER = 'x-agent-utility-proxy';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
const CONNECT_TIMEOUT_MS = 15_000;
const GENERIC_REFUSAL: Record<ProxyFailure['verdict'], string> = {
  blocked: 'Blocked: this address is not reachable from the browser.',
  unreachable: 'The browser could not reach this host.',
};
const FAILURE_MEMORY_MS = 60_000;

export interface ProxyFailure {
  verdict: 'blocked' | 'unreachable';
  message: string;
  /** How a task that failed because of this should be treated (see ToolError). */
  kind: ToolError['kind'];
  at: number;
}

export interface ProxyCredentials {
  username: string;
  password: string;
}

const PROXY_USER = 'agent-utility';

export interface ProxyStats {
  tunnels: number;
  requests: number;
  refused: number;
  /** Requests refused with 407 for lacking the proxy credential. */
  unauthenticated: number;
}

export class GuardedProxy {
  readonly stats: ProxyStats = { tunnels: 0, requests: 0, refused: 0, unauthenticated: 0 };
  /** What the browser must send as Proxy-Authorization (Basic); generated per process, never stored. */
  readonly credentials: ProxyCredentials = { username: PROXY_USER, password: randomBytes(24).toString('base64url') };
  private readonly expectedAuthorization = Buffer.from(`Basic ${Buffer.from(`${this.credentials.username}:${this.credentials.password}`).toString('base64')}`);
  private readonly sockets = new Set<Duplex>();
  private readonly failures = new Map<string, ProxyFailure>();
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 60_000 });
  private listeningPort = 0;

  private constructor(
    private readonly server: http.Server,
    private readonly guard: AddressGuard,
    private readonly log: Logger,
  ) {}

  /** Starts listening on 127.0.0.1 on an ephemeral port. */
  static async start(guard: AddressGuard, log: Logger): Promise<GuardedProxy> {
    const server = http.createServer();
    const proxy = new GuardedProxy(server, guard, log);
    server.on('request', (req, res) => void proxy.forward(req, res));
    server.on('connect', (req, socket, head) => void proxy.tunnel(req, socket, head, 'connect'));
    server.on('upgrade', (req, socket, head) => void proxy.tunnel(req, socket, head, 'upgrade'));
    server.on('connection', (socket) => proxy.track(socket));
    server.on('clientError', (_err, socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    proxy.listeningPort = (server.address() as net.AddressInfo).port;
    return proxy;
  }

  get port(): number {
    return this.listeningPort;
  }

  /** The value for Chromium's --proxy-server. */
  get url(): string {
    return `http://127.0.0.1:${this.listeningPort}`;
  }

  /** Why the proxy last refused or failed `host` (within the last minute), to explain a failed navigation. */
  recentFailure(host: string): ProxyFailure | undefined {
    const f = this.failures.get(host.toLowerCase());
    return f && Date.now() - f.at < FAILURE_MEMORY_MS ? f : undefined;
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    this.agent.destroy();
    await closed;
  }

  /** Resolves and checks the target; answers with the address to connect to, or records why not. */
  private async checkTarget(host: string, port: number): Promise<ResolvedAddress | ProxyFailure> {
    try {
      const target = await this.guard.resolve(host);
      // The proxy itself is on loopback; even when loopback is allowlisted (tests), a page must not
      // loop requests back into it.
      if (port === this.listeningPort && ['loopback', 'unspecified', 'reserved'].includes(classifyAddress(target.address).kind)) {
        return this.remember(host, 'blocked', 'Blocked target: the browser proxy itself.', 'input');
      }
      return target;
    } catch (err) {
      const blocked = (err as Error).name === 'BlockedTargetError';
      const kind = err instanceof ToolError ? err.kind : 'transient';
      return this.remember(host, blocked ? 'blocked' : 'unreachable', (err as Error).message, kind);
    }
  }

  private remember(host: string, verdict: ProxyFailure['verdict'], message: string, kind: ProxyFailure['kind'] = 'transient'): ProxyFailure {
    this.stats.refused++;
    if (this.failures.size > 512) this.failures.clear();
    const failure: ProxyFailure = { verdict, message, kind, at: Date.now() };
    this.failures.set(host.toLowerCase(), failure);
    this.log.debug('proxy refused a connection', { host, verdict, reason: message });
    return failure;
  }

  /** Plain http: `GET http://host/path HTTP/1.1`. */
  private async forward(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    this.stats.requests++;
    let url: URL;
    try {
      if (!/^http:\/\//i.test(req.url ?? '')) throw new Error('not absolute-form');
      url = new URL(req.url!);
    } catch {
      this.answer(res, 400, 'blocked', 'This is a forward proxy for the browser pool; it only takes absolute http URLs.');
      return;
    }
    if (!this.authorized(req)) {
      this.stats.unauthenticated++;
      this.answer(res, 407, 'unauthenticated', 'Proxy authentication required.', { 'Proxy-Authenticate': PROXY_CHALLENGE });
      return;
    }
    const port = Number(url.port || 80);
    const target = await this.checkTarget(url.hostname.replace(/^\[|\]$/g, ''), port);
    if ('verdict' in target) {
      // The body may end up rendered in a frame of the page: say nothing about what the name resolved to
      // (the task's error is built from recentFailure, not from this body).
      this.answer(res, target.verdict === 'blocked' ? 403 : 502, target.verdict, GENERIC_REFUSAL[target.verdict]);
      return;
    }
    const upstream = http.request({
      host: target.address,
      family: target.family,
      port,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers: endToEndHeaders(req.rawHeaders),
      setHost: false,
      agent: this.agent,
      timeout: CONNECT_TIMEOUT_MS,
    });
    upstream.on('timeout', () => upstream.destroy(new Error('upstream timed out')));
    upstream.on('response', (up) => {
      res.writeHead(up.statusCode ?? 502, up.statusMessage, endToEndHeaders(up.rawHeaders));
      up.pipe(res);
      up.on('error', () => res.destroy());
    });
    upstream.on('error', (err) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      this.remember(url.hostname.replace(/^\[|\]$/g, ''), 'unreachable', `Could not reach ${url.host}: ${err.message}`);
      this.answer(res, 502, 'unreachable', GENERIC_REFUSAL.unreachable);
    });
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  }

  /** CONNECT host:port (https, wss) and, for completeness, an absolute-form Upgrade (plain ws). */
  private async tunnel(req: http.IncomingMessage, client: Duplex, head: Buffer, kind: 'connect' | 'upgrade'): Promise<void> {
    this.track(client);
    client.on('error', () => client.destroy());
    if (!this.authorized(req)) {
      this.stats.unauthenticated++;
      refuseRaw(client, 407, 'unauthenticated');
      return;
    }
    let host: string;
    let port: number;
    let firstBytes: Buffer = head;
    try {
      if (kind === 'connect') {
        const parsed = new URL(`http://${req.url ?? ''}`);
        host = parsed.hostname;
        port = Number(parsed.port || 443);
      } else {
        if (!/^http:\/\//i.test(req.url ?? '')) throw new Error('not absolute-form');
        const parsed = new URL(req.url!);
        host = parsed.hostname;
        port = Number(parsed.port || 80);
        firstBytes = Buffer.concat([Buffer.from(requestHead(req, `${parsed.pathname}${parsed.search}`)), head]);
      }
    } catch {
      refuseRaw(client, 400, 'blocked');
      return;
    }
    this.stats.tunnels++;
    const bare = host.replace(/^\[|\]$/g, '');
    const target = await this.checkTarget(bare, port);
    if ('verdict' in target) {
      refuseRaw(client, target.verdict === 'blocked' ? 403 : 502, target.verdict);
      return;
    }
    const upstream = net.connect({ host: target.address, port, family: target.family });
    this.track(upstream);
    let connected = false;
    upstream.setTimeout(CONNECT_TIMEOUT_MS, () => upstream.destroy(new Error('connect timed out')));
    upstream.once('connect', () => {
      connected = true;
      upstream.setTimeout(0);
      if (kind === 'connect') client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (firstBytes.length > 0) upstream.write(firstBytes);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', (err) => {
      if (connected) {
        client.destroy();
        return;
      }
      this.remember(bare, 'unreachable', `Could not reach ${bare}:${port}: ${err.message}`);
      refuseRaw(client, 502, 'unreachable');
    });
    // A clean end on either side is passed on by pipe(); a close ends the other side too.
    client.on('close', () => upstream.destroy());
  }

  /** Whether the request carries this process's proxy credential (compared in constant time). */
  private authorized(req: http.IncomingMessage): boolean {
    const given = Buffer.from(req.headers['proxy-authorization'] ?? '');
    return given.length === this.expectedAuthorization.length && timingSafeEqual(given, this.expectedAuthorization);
  }

  private answer(res: http.ServerResponse, status: number, verdict: string, message: string, extra: Record<string, string> = {}): void {
    const body = `${message}\n`;
    res.writeHead(status, {
      ...extra,
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
      [PROXY_VERDICT_HEADER]: verdict,
    });
    res.end(body);
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }
}

/** Raw headers without hop-by-hop ones (including any the Connection header names). */
function endToEndHeaders(raw: string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === 'connection') for (const n of raw[i + 1]!.split(',')) named.add(n.trim().toLowerCase());
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (HOP_BY_HOP.has(name) || named.has(name)) continue;
    out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}

/** The request line and headers of an Upgrade request, re-targeted at the origin (origin-form path). */
function requestHead(req: http.IncomingMessage, path: string): string {
  const lines = [`${req.method ?? 'GET'} ${path} HTTP/1.1`];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (/^proxy-/i.test(name)) continue;
    lines.push(`${name}: ${req.rawHeaders[i + 1]!}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}

const PROXY_CHALLENGE = 'Basic realm="agent-utility browser proxy"';

const REASONS: Record<number, string> = { 400: 'Bad Request', 403: 'Forbidden', 407: 'Proxy Authentication Required', 502: 'Bad Gateway' };

function refuseRaw(socket: Duplex, status: number, verdict: string): void {
  const challenge = status === 407 ? `Proxy-Authenticate: ${PROXY_CHALLENGE}\r\n` : '';
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Gateway'}\r\n${challenge}${PROXY_VERDICT_HEADER}: ${verdict}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
  );
}
