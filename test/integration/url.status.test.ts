// url.status against real loopback HTTP/HTTPS servers, certificates made by openssl, and names served by a
// local Knot DNS. NETWORK_ALLOWLIST opens 127.0.0.1 only; nothing leaves the machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import tool from '../../tools/url.status.js';
import { Forbidden } from '../../src/errors.js';
import { startKnot, type KnotServer } from '../support/knot.js';
import { closedPort, startLocalServer, type LocalServer } from '../support/local-http.js';
import { createTestPki, type TestPki } from '../support/test-pki.js';
import { makeToolContext, type TestToolContext } from '../support/tool-context.js';

const ZONE = 'urlstatus.test';
const DAY_MS = 86_400_000;

let pki: TestPki;
let knot: KnotServer;
let web: LocalServer;
let good: LocalServer;
let selfSigned: LocalServer;
let wrongHost: LocalServer;
let expired: LocalServer;
let ctx: TestToolContext;
const openContexts: TestToolContext[] = [];

function routes(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const chain = /^\/chain\/(\d+)$/.exec(url.pathname);
  if (chain) {
    const n = Number(chain[1]);
    if (n === 0) return void res.end('end of chain');
    res.writeHead(302, { location: `/chain/${n - 1}` }).end();
    return;
  }
  switch (url.pathname) {
    case '/ok':
      res.statusMessage = 'All Good';
      res.setHeader('set-cookie', ['a=1', 'b=2']);
      res.setHeader('x-multi', ['one', 'two']);
      res.setHeader('content-type', 'text/plain');
      res.end('fine');
      return;
    case '/missing':
      res.writeHead(404).end('nope');
      return;
    case '/relative':
      res.writeHead(302, { location: 'ok?from=relative' }).end();
      return;
    case '/absolute':
      res.writeHead(301, { location: `https://secure.${ZONE}:${good.port}/ok` }).end();
      return;
    case '/loop-a':
      res.writeHead(307, { location: '/loop-b' }).end();
      return;
    case '/loop-b':
      res.writeHead(308, { location: '/loop-a' }).end();
      return;
    case '/to-ftp':
      res.writeHead(302, { location: 'ftp://files.example/x' }).end();
      return;
    case '/slow':
      return; // never answers
    case '/endless':
      // A body that never ends: the check must stop at the headers.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(Buffer.alloc(64 * 1024));
      return;
    default:
      res.writeHead(200).end('root');
  }
}

async function check(args: { url: string; follow_redirects?: boolean; timeout_ms?: number }, context: TestToolContext = ctx) {
  const result = await tool.run(context, tool.input.parse(args));
  // Whatever happens, the result must match the declared output schema exactly.
  expect(() => tool.output.parse(result)).not.toThrow();
  return result;
}

beforeAll(async () => {
  pki = createTestPki();
  const names = [`*.${ZONE}`, ZONE, 'localhost', '127.0.0.1'];
  [web, good, selfSigned, wrongHost, expired, knot] = await Promise.all([
    startLocalServer({ handler: routes }),
    startLocalServer({ handler: routes, tls: pki.issue({ commonName: `secure.${ZONE}`, altNames: names }) }),
    startLocalServer({ handler: routes, tls: pki.selfSigned({ commonName: `self.${ZONE}`, altNames: names }) }),
    startLocalServer({ handler: routes, tls: pki.issue({ commonName: 'other.example', altNames: ['other.example'] }) }),
    startLocalServer({
      handler: routes,
      tls: pki.issue({ commonName: `old.${ZONE}`, altNames: names, notBefore: new Date('2020-01-01T00:00:00Z'), notAfter: new Date('2021-01-01T00:00:00Z') }),
    }),
    startKnot([
      { origin: ZONE, records: ['@ 300 IN A 127.0.0.1', '* 300 IN A 127.0.0.1'] },
      { origin: 'nx.test', records: ['www 300 IN A 127.0.0.1'] },
    ]),
  ]);
  ctx = context();
}, 60_000);

function context(extra: Record<string, string | undefined> = {}): TestToolContext {
  const c = makeToolContext({ NETWORK_ALLOWLIST: '127.0.0.1/32', DNS_SERVERS: knot.server, TLS_CA_FILE: pki.caCertPath, ...extra });
  openContexts.push(c);
  return c;
}

afterAll(async () => {
  await Promise.all(openContexts.map((c) => c.close()));
  await Promise.all([web, good, selfSigned, wrongHost, expired].map((s) => s?.close()));
  await knot?.stop();
  pki?.cleanup();
});

describe('url.status over https', () => {
  it('reports a trusted certificate, the reason phrase, headers and timings', async () => {
    const url = `https://secure.${ZONE}:${good.port}/ok`;
    const r = await check({ url });
    expect(r).toMatchObject({ url, final_url: url, status_code: 200, status_text: 'All Good', reachable: true, redirects: [] });
    expect(r.headers['set-cookie']).toBe('a=1, b=2');
    expect(r.headers['x-multi']).toBe('one, two');
    expect(r.headers['content-type']).toBe('text/plain');
    expect(r.ssl).toMatchObject({ valid: true, error: null, subject: `CN=secure.${ZONE}`, issuer: 'O=agent-utility tests, CN=agent-utility Test CA' });
    expect(r.ssl?.days_remaining).toBeGreaterThanOrEqual(28);
    expect(r.ssl?.days_remaining).toBeLessThanOrEqual(30);
    expect(Date.parse(r.ssl?.valid_to ?? '') - Date.parse(r.ssl?.valid_from ?? '')).toBe(31 * DAY_MS);
    expect(r.ssl?.protocol).toMatch(/^TLSv1\.[23]$/);
    for (const phase of ['dns_ms', 'connect_ms', 'tls_ms', 'first_byte_ms'] as const) expect(r.timings[phase]).toEqual(expect.any(Number));
    expect(Number.isNaN(Date.parse(r.checked_at))).toBe(false);
    expect(good.requests.some((q) => q.host === `secure.${ZONE}:${good.port}` && q.url === '/ok')).toBe(true);
  });

  it('checks the certificate against an IP literal host', async () => {
    const r = await check({ url: `https://127.0.0.1:${good.port}/ok` });
    expect(r.status_code).toBe(200);
    expect(r.ssl?.valid).toBe(true);
    expect(r.timings.dns_ms).toBeNull();
  });

  it('describes a self-signed certificate and refuses the connection', async () => {
    const before = selfSigned.requests.length;
    const r = await check({ url: `https://self.${ZONE}:${selfSigned.port}/ok` });
    expect(r.status_code).toBe(0);
    expect(r.reachable).toBe(false);
    expect(r.status_text).toBe(`TLS certificate error for self.${ZONE}: the certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT)`);
    expect(r.ssl).toMatchObject({ valid: false, error: 'DEPTH_ZERO_SELF_SIGNED_CERT', subject: `CN=self.${ZONE}`, issuer: `CN=self.${ZONE}` });
    expect(selfSigned.requests.length).toBe(before);
  });

  it('reports a certificate issued for another host name', async () => {
    const r = await check({ url: `https://wrong.${ZONE}:${wrongHost.port}/` });
    expect(r.status_code).toBe(0);
    expect(r.status_text).toContain('(ERR_TLS_CERT_ALTNAME_INVALID)');
    expect(r.ssl).toMatchObject({ valid: false, error: 'ERR_TLS_CERT_ALTNAME_INVALID', subject: 'CN=other.example' });
  });

  it('reports an expired certificate with its dates', async () => {
    const r = await check({ url: `https://old.${ZONE}:${expired.port}/` });
    expect(r.status_code).toBe(0);
    expect(r.status_text).toBe(`TLS certificate error for old.${ZONE}: the certificate has expired (CERT_HAS_EXPIRED)`);
    expect(r.ssl).toMatchObject({ valid: false, error: 'CERT_HAS_EXPIRED', valid_from: '2020-01-01T00:00:00.000Z', valid_to: '2021-01-01T00:00:00.000Z' });
    expect(r.ssl?.days_remaining).toBeLessThan(-365);
  });

  it('does not trust the test CA unless TLS_CA_FILE names it', async () => {
    const r = await check({ url: `https://secure.${ZONE}:${good.port}/ok` }, context({ TLS_CA_FILE: undefined }));
    expect(r.status_code).toBe(0);
    expect(r.ssl).toMatchObject({ valid: false, error: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', subject: `CN=secure.${ZONE}` });
  });

  it('reports a failed handshake when the port speaks plain HTTP', async () => {
    const r = await check({ url: `https://plain.${ZONE}:${web.port}/` });
    expect(r.status_code).toBe(0);
    expect(r.status_text).toBe(`TLS handshake with 127.0.0.1:${web.port} failed: wrong version number (ERR_SSL_WRONG_VERSION_NUMBER)`);
    expect(r.ssl).toMatchObject({ valid: false, error: 'ERR_SSL_WRONG_VERSION_NUMBER', subject: null });
  });
});

describe('url.status over http', () => {
  it('has no ssl block and reports a 404 as reachable false', async () => {
    const r = await check({ url: `http://www.${ZONE}:${web.port}/missing` });
    expect(r).toMatchObject({ status_code: 404, status_text: 'Not Found', reachable: false, ssl: null });
    expect(r.timings.tls_ms).toBeNull();
  });

  it('stops at the headers of a body that never ends', async () => {
    const r = await check({ url: `http://127.0.0.1:${web.port}/endless`, timeout_ms: 20_000 });
    expect(r.status_code).toBe(200);
    expect(r.headers['content-type']).toBe('application/octet-stream');
  });

  it('times out on a server that never sends headers', async () => {
    const r = await check({ url: `http://127.0.0.1:${web.port}/slow`, timeout_ms: 300 });
    expect(r.status_code).toBe(0);
    expect(r.status_text).toBe(`Timed out after 300 ms waiting for response headers from http://127.0.0.1:${web.port}/slow`);
  });

  it('reports a refused connection', async () => {
    const port = await closedPort();
    const r = await check({ url: `http://127.0.0.1:${port}/` });
    expect(r.status_code).toBe(0);
    expect(r.status_text).toBe(`Connection refused connecting to 127.0.0.1:${port} (ECONNREFUSED)`);
    expect(r.timings.connect_ms).toBeNull();
  });

  it('reports a name that does not exist', async () => {
    const r = await check({ url: 'https://nothing.nx.test/' });
    expect(r.status_code).toBe(0);
    expect(r.status_text).toBe('DNS lookup failed for nothing.nx.test: no such domain (NXDOMAIN) (ENOTFOUND)');
    expect(r.ssl).toMatchObject({ valid: false, error: null });
  });
});

describe('url.status redirects', () => {
  it('follows a relative Location', async () => {
    const start = `http://www.${ZONE}:${web.port}/relative`;
    const r = await check({ url: start });
    expect(r).toMatchObject({ status_code: 200, final_url: `http://www.${ZONE}:${web.port}/ok?from=relative`, redirects: [{ url: start, status_code: 302 }] });
  });

  it('opens exactly one connection per hop and none after the check', async () => {
    const before = web.connections;
    await check({ url: `http://127.0.0.1:${web.port}/chain/2` });
    // Give a stray reconnect (undici retiring an aborted request) time to show up.
    await new Promise((r) => setTimeout(r, 200));
    expect(web.connections - before).toBe(3);
  });

  it('follows an absolute Location to another origin and reports the final certificate', async () => {
    const start = `http://127.0.0.1:${web.port}/absolute`;
    const r = await check({ url: start });
    expect(r).toMatchObject({ status_code: 200, final_url: `https://secure.${ZONE}:${good.port}/ok`, redirects: [{ url: start, status_code: 301 }] });
    expect(r.ssl?.valid).toBe(true);
  });

  it('does not follow when follow_redirects is false', async () => {
    const start = `http://127.0.0.1:${web.port}/relative`;
    const r = await check({ url: start, follow_redirects: false });
    expect(r).toMatchObject({ status_code: 302, final_url: start, reachable: false, redirects: [] });
    expect(r.headers.location).toBe('ok?from=relative');
  });

  it('detects a loop', async () => {
    const a = `http://127.0.0.1:${web.port}/loop-a`;
    const b = `http://127.0.0.1:${web.port}/loop-b`;
    const r = await check({ url: a });
    expect(r.status_code).toBe(0);
    expect(r.status_text).toBe(`Redirect loop: ${b} redirects back to ${a}`);
    expect(r.redirects).toEqual([
      { url: a, status_code: 307 },
      { url: b, status_code: 308 },
    ]);
  });

  it('follows 10 redirects', async () => {
    const r = await check({ url: `http://127.0.0.1:${web.port}/chain/10` });
    expect(r.status_code).toBe(200);
    expect(r.redirects).toHaveLength(10);
    expect(r.final_url).toBe(`http://127.0.0.1:${web.port}/chain/0`);
  });

  it('gives up after more than 10', async () => {
    const r = await check({ url: `http://127.0.0.1:${web.port}/chain/11` });
    expect(r.status_code).toBe(0);
    expect(r.status_text).toBe(`Too many redirects (more than 10); the last pointed to http://127.0.0.1:${web.port}/chain/0`);
    expect(r.redirects).toHaveLength(11);
  });

  it('refuses a redirect to a non-http scheme', async () => {
    const r = await check({ url: `http://127.0.0.1:${web.port}/to-ftp` });
    expect(r.status_code).toBe(0);
    expect(r.final_url).toBe('ftp://files.example/x');
    expect(r.status_text).toBe('Blocked target: only http and https URLs are allowed, not ftp:');
  });
});

describe('url.status input and precheck', () => {
  it('bounds timeout_ms and defaults the optional fields', () => {
    expect(tool.input.parse({ url: 'https://example.com/' })).toEqual({ url: 'https://example.com/', follow_redirects: true, timeout_ms: 10_000 });
    expect(tool.input.safeParse({ url: 'https://example.com/', timeout_ms: 30_001 }).success).toBe(false);
    expect(tool.input.safeParse({ url: 'https://example.com/', timeout_ms: 0 }).success).toBe(false);
    expect(tool.input.safeParse({ url: 'not a url' }).success).toBe(false);
  });

  it('refuses a visible blocked target at submission with 403 BLOCKED_TARGET', async () => {
    const precheck = tool.precheck!;
    for (const url of ['ftp://example.com/', 'http://127.0.0.2/', 'http://2130706434/', 'http://[::ffff:10.0.0.1]/', 'http://169.254.169.254/']) {
      const err = await precheck(ctx, tool.input.parse({ url })).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, url).toBeInstanceOf(Forbidden);
      expect((err as Forbidden).toBody(), url).toMatchObject({ code: 'BLOCKED_TARGET', field: 'url', retry: false });
    }
    await expect(precheck(ctx, tool.input.parse({ url: `http://127.0.0.1:${web.port}/` }))).resolves.toBeUndefined();
    await expect(precheck(ctx, tool.input.parse({ url: `https://www.${ZONE}/` }))).resolves.toBeUndefined();
  });
});
