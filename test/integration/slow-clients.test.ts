// Slow and idle clients do not starve other callers: connections dribbling header bytes (slowloris),
// connections that never send a byte, and a thousand idle keep-alive connections are closed by the
// server on its configured deadlines, while another caller's request is answered meanwhile. Deadlines are
// set small so the test waits on the server's close events rather than on a clock.
import net from 'node:net';
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';

let svc: TestService | undefined;
const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await svc?.close();
  svc = undefined;
});

/** A raw connection that records what the server sent and resolves `closed` when the server ends it. */
function connect(port: number): { socket: net.Socket; received: () => string; closed: Promise<void> } {
  const socket = net.connect(port, '127.0.0.1');
  sockets.push(socket);
  socket.setNoDelay(true);
  let data = '';
  socket.on('data', (b: Buffer) => (data += b.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, received: () => data, closed };
}

const connected = (s: net.Socket) =>
  new Promise<void>((resolve, reject) => (s.connecting ? s.once('connect', () => resolve()).once('error', reject) : resolve()));

/** One GET on a fresh connection of its own (no pooled socket), with its status and body. */
function freshGet(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

describe('slow and idle clients', () => {
  it('closes header dribblers and silent connections on the headers deadline (408), answering another caller meanwhile', async () => {
    svc = await startTestService({ HTTP_HEADERS_TIMEOUT_MS: '400', HTTP_REQUEST_TIMEOUT_MS: '800', HTTP_KEEP_ALIVE_TIMEOUT_MS: '400' }, { workers: false });
    const port = svc.server.port;
    const dribblers = Array.from({ length: 100 }, () => connect(port));
    const silent = Array.from({ length: 50 }, () => connect(port));
    await Promise.all([...dribblers, ...silent].map((c) => connected(c.socket)));
    // Each dribbler sends a request line, then one header line at a time and never the blank line
    // that ends the headers: it keeps going until the server hangs up, so only the server can end it.
    const timers = dribblers.map((d, i) => {
      d.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      const timer = setInterval(() => d.socket.writable && d.socket.write(`X-Dribble-${i}: x\r\n`), 20);
      void d.closed.then(() => clearInterval(timer));
      return timer;
    });
    try {
      const answered = await freshGet(`${svc.url}/healthz`);
      expect(answered.status).toBe(200);
      expect(JSON.parse(answered.body).status).toBe('ok');
      await Promise.all([...dribblers, ...silent].map((c) => c.closed));
    } finally {
      timers.forEach(clearInterval);
    }
    // Each is told why (408) before the server closes it.
    for (const c of [...dribblers, ...silent]) expect(c.received()).toMatch(/^HTTP\/1\.1 408 /);
    // Still answering after the storm.
    expect((await freshGet(`${svc.url}/healthz`)).status).toBe(200);
  });

  it('answers another caller while 1,000 idle keep-alive connections are open, and closes them on the keep-alive deadline', async () => {
    svc = await startTestService({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '500', HTTP_HEADERS_TIMEOUT_MS: '5000' }, { workers: false });
    const port = svc.server.port;
    const idle = Array.from({ length: 1000 }, () => connect(port));
    await Promise.all(idle.map((c) => connected(c.socket)));
    // One complete keep-alive request each; wait until each has its whole answer, then leave it idle.
    const answeredOnce = idle.map(
      (c) =>
        new Promise<void>((resolve) => {
          const check = () => /\r\n\r\n[\s\S]*\}$/.test(c.received()) && resolve();
          c.socket.on('data', check);
          void c.closed.then(resolve);
        }),
    );
    for (const c of idle) c.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n');
    await Promise.all(answeredOnce);
    for (const c of idle) expect(c.received()).toMatch(/^HTTP\/1\.1 200 [\s\S]*\r\nConnection: keep-alive\r\n/i);
    const other = await freshGet(`${svc.url}/healthz`);
    expect(other.status).toBe(200);
    await Promise.all(idle.map((c) => c.closed));
    // Each got exactly its one answer: the server ended the idle connection, the client never did.
    for (const c of idle) expect(c.received().match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect((await freshGet(`${svc.url}/healthz`)).status).toBe(200);
  });

  it('refuses connections over HTTP_MAX_CONNECTIONS and accepts again once the idle ones are closed', async () => {
    svc = await startTestService({ HTTP_MAX_CONNECTIONS: '20', HTTP_HEADERS_TIMEOUT_MS: '400', HTTP_REQUEST_TIMEOUT_MS: '800' }, { workers: false });
    const port = svc.server.port;
    const holders = Array.from({ length: 20 }, () => connect(port));
    await Promise.all(holders.map((c) => connected(c.socket)));
    // Wait until the server has accepted all twenty, so the next one is over the cap.
    await new Promise<void>((resolve, reject) => {
      const poll = () => svc!.server.server.getConnections((err, n) => (err ? reject(err) : n >= 20 ? resolve() : setImmediate(poll)));
      poll();
    });
    const over = connect(port);
    await over.closed;
    expect(over.received()).toBe('');
    // The twenty never send a request: the headers deadline frees their places.
    await Promise.all(holders.map((c) => c.closed));
    expect((await freshGet(`${svc.url}/healthz`)).status).toBe(200);
  });
});
