// Loopback HTTP and HTTPS servers for tests, on ephemeral ports, counting every TCP connection and request
// they see (so a test can prove that nothing reached them).
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface LocalServer {
  host: string;
  port: number;
  /** e.g. http://127.0.0.1:12345 */
  origin: string;
  /** TCP connections accepted (counted before any TLS or HTTP). */
  readonly connections: number;
  /** Requests received: method, url and Host header. */
  readonly requests: { method: string; url: string; host: string }[];
  close(): Promise<void>;
}

export interface LocalServerOptions {
  /** Loopback address to listen on (default 127.0.0.1). */
  host?: string;
  tls?: { key: string; cert: string };
  handler?: Handler;
}

export async function startLocalServer(opts: LocalServerOptions = {}): Promise<LocalServer> {
  const host = opts.host ?? '127.0.0.1';
  if (!/^127\.|^::1$/.test(host)) throw new Error(`test servers listen on loopback only, not ${host}`);
  const requests: LocalServer['requests'] = [];
  let connections = 0;
  const sockets = new Set<Socket>();
  const handler: Handler = (req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', host: req.headers.host ?? '' });
    (opts.handler ?? ((_q, s) => s.end('ok')))(req, res);
  };
  const server = opts.tls ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, handler) : http.createServer(handler);
  server.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // Failed handshakes are expected in certificate tests.
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const hostInUrl = host.includes(':') ? `[${host}]` : host;
  return {
    host,
    port,
    origin: `${opts.tls ? 'https' : 'http'}://${hostInUrl}:${port}`,
    get connections() {
      return connections;
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port that was just free on 127.0.0.1 (a server bound and closed): connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
