// A loopback JSON-RPC relay in front of the local chain (X402_RPC_URL points at it), for tests that need
// to see or break what the service asks of the RPC node: it counts calls per method, answers chosen
// methods with 502 (the node's answer lost on the way), and lets a test act before a call is relayed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RpcRelay {
  /** Where the service sends its JSON-RPC requests. */
  readonly url: string;
  /** While true, every method asked is counted in `calls` (each call of a batch on its own). */
  counting: boolean;
  readonly calls: Map<string, number>;
  /** Requests naming one of these methods are answered 502 and never reach the node. */
  readonly dropped: Set<string>;
  /** Runs before a request is relayed, with the methods it names (a test's way to act while the service waits). */
  beforeRelay: ((methods: readonly string[]) => Promise<void>) | undefined;
  close(): Promise<void>;
}

/** The methods a JSON-RPC body names: one for a single call, several for a batch, none if unreadable. */
function methodsOf(body: Buffer): string[] {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { method?: unknown } | { method?: unknown }[];
    return (Array.isArray(parsed) ? parsed : [parsed]).map((m) => m.method).filter((m): m is string => typeof m === 'string');
  } catch {
    return [];
  }
}

export async function startRpcRelay(upstreamUrl: string): Promise<RpcRelay> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const methods = methodsOf(body);
      if (relay.counting) for (const m of methods) relay.calls.set(m, (relay.calls.get(m) ?? 0) + 1);
      if (methods.some((m) => relay.dropped.has(m))) {
        res.writeHead(502).end('bad gateway');
        return;
      }
      Promise.resolve(relay.beforeRelay?.(methods))
        .then(() => fetch(upstreamUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body }))
        .then(async (r) => res.writeHead(r.status, { 'content-type': 'application/json' }).end(Buffer.from(await r.arrayBuffer())))
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const relay: RpcRelay = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counting: false,
    calls: new Map(),
    dropped: new Set(),
    beforeRelay: undefined,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return relay;
}
