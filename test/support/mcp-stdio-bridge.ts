// A small streamable-HTTP front for a stdio MCP server, so HTTP-only clients (the MCP conformance suite)
// can test `agent-utility mcp` itself. It spawns the built CLI once and relays JSON-RPC: a POSTed request
// is written to the child's stdin and answered as an SSE stream carrying whatever the child sends while the
// request is open (progress, log messages) and then its response; a POSTed notification or response gets
// 202. Like any HTTP front for a local server it accepts only loopback Host and Origin headers (DNS
// rebinding), and, like our /mcp, it has no sessions (GET and DELETE answer 405).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';

export interface StdioBridge {
  url: string;
  stderr: string[];
  close(): Promise<void>;
}

type Message = { jsonrpc: '2.0'; id?: string | number | null; method?: string };

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function hostOf(value: string): string {
  try {
    return new URL(value.includes('://') ? value : `http://${value}`).hostname;
  } catch {
    return '';
  }
}

export async function startStdioBridge(command: string, args: string[], env: Record<string, string>): Promise<StdioBridge> {
  const child: ChildProcessWithoutNullStreams = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  child.stderr.on('data', (c: Buffer) => stderr.push(c.toString()));
  /** Open requests by JSON-RPC id, each with the SSE response it is answered on. */
  const open = new Map<string, http.ServerResponse>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (!line.trim()) return;
    const message = JSON.parse(line) as Message;
    const frame = `event: message\ndata: ${line}\n\n`;
    const isResponse = message.method === undefined && message.id !== undefined && message.id !== null;
    if (isResponse) {
      const res = open.get(String(message.id));
      open.delete(String(message.id));
      res?.end(frame);
      return;
    }
    // A notification or a server request: it belongs to an open request (stdio does not say which).
    for (const res of open.values()) res.write(frame);
  });

  const server = http.createServer((req, res) => {
    const host = hostOf(req.headers.host ?? '');
    const origin = req.headers.origin;
    if (!LOCAL_HOSTS.has(host) || (origin !== undefined && !LOCAL_HOSTS.has(hostOf(origin)))) {
      res
        .writeHead(403, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Host or Origin is not local.' } }));
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Message | Message[];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Message | Message[];
      } catch {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
        return;
      }
      const messages = Array.isArray(body) ? body : [body];
      const requests = messages.filter((m) => m.method !== undefined && m.id !== undefined && m.id !== null);
      if (requests.length === 0) res.writeHead(202).end();
      else if (requests.length > 1) {
        res
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'The bridge takes one request per POST.' } }));
        return;
      } else {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.flushHeaders();
        open.set(String(requests[0]!.id), res);
      }
      for (const m of messages) child.stdin.write(`${JSON.stringify(m)}\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stderr,
    async close() {
      for (const res of open.values()) res.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      child.stdin.end();
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
