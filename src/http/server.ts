// Starts the task service's HTTP server and closes it gracefully (stop accepting, finish requests).
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Runtime } from '../runtime.js';
import { createLimitedServer } from '../web/http-server-limits.js';
import { createHttpApp, type HttpApp, type HttpAppOptions } from './app.js';

export interface RunningServer {
  url: string;
  port: number;
  http: HttpApp;
  server: http.Server;
  close(): Promise<void>;
}

export async function startHttpServer(rt: Runtime, opts: HttpAppOptions & { port?: number; host?: string } = {}): Promise<RunningServer> {
  const app = createHttpApp(rt, opts);
  const server = createLimitedServer(rt.config.http.server, app.handler);
  const host = opts.host ?? rt.config.host;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? rt.config.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    http: app,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5_000).unref();
      }),
  };
}
