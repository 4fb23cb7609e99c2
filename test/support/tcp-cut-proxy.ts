// A TCP relay on a loopback port in front of a real server (the test PostgreSQL), that a test can cut
// and restore: cut() closes every relayed connection and stops listening (new connections are refused,
// as when the server is down), restore() listens again on the same port. It also knows the local ports
// of its upstream connections, so a test can find exactly its own backends in pg_stat_activity.
import net from 'node:net';

export interface CutProxy {
  port: number;
  /** Local ports of the relay's open connections to the server (its client_port as the server sees it). */
  upstreamPorts(): number[];
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startCutProxy(target: { host: string; port: number }): Promise<CutProxy> {
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  const onConnection = (client: net.Socket) => {
    const upstream = net.connect(target.port, target.host);
    const pair = { client, upstream };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  };
  let server = net.createServer(onConnection);
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const stop = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const p of pairs) {
      p.client.destroy();
      p.upstream.destroy();
    }
    pairs.clear();
    await closed;
  };
  return {
    port,
    upstreamPorts: () => [...pairs].map((p) => p.upstream.localPort).filter((n): n is number => n !== undefined),
    cut: stop,
    restore: async () => {
      server = net.createServer(onConnection);
      await listen(port);
    },
    close: () => (server.listening ? stop() : Promise.resolve()),
  };
}
