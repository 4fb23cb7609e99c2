// A UDP DNS proxy in front of a real server (Knot) that can hold queries (to keep tasks "running" for
// as long as a test needs) and counts queries per name (to observe how often a tool really ran).
import dgram from 'node:dgram';

export interface DnsProxy {
  server: string;
  mode: 'hold' | 'forward';
  queriesFor(name: string): number;
  close(): Promise<void>;
}

function questionName(msg: Buffer): string {
  const labels: string[] = [];
  let i = 12;
  while (i < msg.length) {
    const len = msg[i]!;
    if (len === 0) break;
    labels.push(msg.subarray(i + 1, i + 1 + len).toString('ascii'));
    i += len + 1;
  }
  return labels.join('.').toLowerCase();
}

export async function startDnsProxy(upstream: string, mode: 'hold' | 'forward' = 'forward'): Promise<DnsProxy> {
  const [host, port] = [upstream.slice(0, upstream.lastIndexOf(':')), Number(upstream.slice(upstream.lastIndexOf(':') + 1))];
  const socket = dgram.createSocket('udp4');
  const counts = new Map<string, number>();
  const proxy: DnsProxy = {
    server: '',
    mode,
    queriesFor: (name) => counts.get(name.toLowerCase()) ?? 0,
    close: () => new Promise<void>((r) => socket.close(() => r())),
  };
  socket.on('message', (msg, rinfo) => {
    const name = questionName(msg);
    counts.set(name, (counts.get(name) ?? 0) + 1);
    if (proxy.mode === 'hold') return; // never answered: the client keeps waiting
    const up = dgram.createSocket('udp4');
    up.on('message', (answer) => {
      socket.send(answer, rinfo.port, rinfo.address);
      up.close();
    });
    up.on('error', () => up.close());
    up.send(msg, port, host);
  });
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', () => r()));
  proxy.server = `127.0.0.1:${socket.address().port}`;
  return proxy;
}
