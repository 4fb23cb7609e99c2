// The network guard end to end: a canary server on 127.0.0.2 must never see a connection, however it is
// addressed (a name resolving to it, a redirect to it, its literal address in any numeric form, a name with
// both an allowed and a blocked address). Names come from a local Knot DNS; nothing leaves the machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import tool from '../../tools/url.status.js';
import { Forbidden } from '../../src/errors.js';
import { BlockedTargetError, DnsResolutionError } from '../../src/net/errors.js';
import { netGuardService } from '../../src/net/guard.js';
import { httpClientService } from '../../src/net/http-client.js';
import { startKnot, type KnotServer } from '../support/knot.js';
import { startLocalServer, type LocalServer } from '../support/local-http.js';
import { makeToolContext, type TestToolContext } from '../support/tool-context.js';

const ZONE = 'guard.test';
let knot: KnotServer;
let canary: LocalServer;
let fixture: LocalServer;
const contexts: TestToolContext[] = [];

function context(env: Record<string, string | undefined>): TestToolContext {
  const c = makeToolContext(env);
  contexts.push(c);
  return c;
}

async function status(ctx: TestToolContext, url: string) {
  return tool.run(ctx, tool.input.parse({ url, timeout_ms: 5_000 }));
}

beforeAll(async () => {
  canary = await startLocalServer({ host: '127.0.0.2' });
  fixture = await startLocalServer({
    handler: (req, res) => {
      const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
      if (to) res.writeHead(302, { location: to }).end();
      else res.end('allowed');
    },
  });
  knot = await startKnot([
    {
      origin: ZONE,
      records: [
        'allowed 300 IN A 127.0.0.1',
        'canary 300 IN A 127.0.0.2',
        'alias 300 IN CNAME canary',
        // DNS-rebinding style: one allowed and one blocked answer for the same name.
        'mixed 300 IN A 127.0.0.1',
        'mixed 300 IN A 127.0.0.2',
        'mapped 300 IN AAAA ::ffff:127.0.0.2',
        'meta 300 IN A 169.254.169.254',
        'private 300 IN A 10.0.0.1',
        'ula 300 IN AAAA fd00::1',
        'empty 300 IN TXT "no addresses"',
      ],
    },
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  await Promise.all([canary, fixture].map((s) => s?.close()));
  await knot?.stop();
});

describe('with NETWORK_ALLOWLIST=127.0.0.1/32 and the canary on 127.0.0.2', () => {
  let ctx: TestToolContext;
  beforeAll(() => {
    ctx = context({ NETWORK_ALLOWLIST: '127.0.0.1/32', DNS_SERVERS: knot.server });
  });

  it('reaches the allowed fixture by name (the control case)', async () => {
    const r = await status(ctx, `http://allowed.${ZONE}:${fixture.port}/`);
    expect(r.status_code).toBe(200);
  });

  it.each([
    ['a name resolving to it', () => `http://canary.${ZONE}:${canary.port}/`, `Blocked: private address. canary.${ZONE} does not resolve to a public address`],
    ['a CNAME to that name', () => `http://alias.${ZONE}:${canary.port}/`, `Blocked: private address. alias.${ZONE}`],
    ['a name with one allowed and one blocked address', () => `http://mixed.${ZONE}:${canary.port}/`, `Blocked: private address. mixed.${ZONE}`],
    ['a name whose AAAA is IPv4-mapped', () => `http://mapped.${ZONE}:${canary.port}/`, `Blocked: private address. mapped.${ZONE}`],
    ['its literal address', () => `http://127.0.0.2:${canary.port}/`, '127.0.0.2 is a loopback address (127.0.0.0/8)'],
    ['its address as one decimal number', () => `http://2130706434:${canary.port}/`, '127.0.0.2 is a loopback address'],
    ['its address in hex and octal parts', () => `http://0x7f.0.0.02:${canary.port}/`, '127.0.0.2 is a loopback address'],
    ['its IPv4-mapped IPv6 literal', () => `http://[::ffff:127.0.0.2]:${canary.port}/`, 'carrying 127.0.0.2'],
    [
      'a redirect from the allowed fixture to its name',
      () => `http://127.0.0.1:${fixture.port}/?to=${encodeURIComponent(`http://canary.${ZONE}:${canary.port}/`)}`,
      `Blocked: private address. canary.${ZONE}`,
    ],
    [
      'a redirect from the allowed fixture to its literal',
      () => `http://127.0.0.1:${fixture.port}/?to=${encodeURIComponent(`http://127.0.0.2:${canary.port}/x`)}`,
      '127.0.0.2 is a loopback address',
    ],
  ])('refuses %s', async (_what, url, reason) => {
    const r = await status(ctx, url());
    expect(r.status_code).toBe(0);
    expect(r.reachable).toBe(false);
    expect(r.status_text).toMatch(/^Blocked/);
    expect(r.status_text).toContain(reason);
    // What a name resolved to is never told: only a literal the caller gave is described.
    if (!/127\.0\.0\.2|2130706434|0x7f/.test(url())) expect(r.status_text).not.toMatch(/127\.0\.0\.2|loopback/);
  });

  it('records the hop that redirected to the canary', async () => {
    const start = `http://127.0.0.1:${fixture.port}/?to=${encodeURIComponent(`http://canary.${ZONE}:${canary.port}/`)}`;
    const r = await status(ctx, start);
    expect(r.redirects).toEqual([{ url: start, status_code: 302 }]);
    expect(r.final_url).toBe(`http://canary.${ZONE}:${canary.port}/`);
  });

  // Resolution only (no url.status run): a guard bug here must not turn into a packet to a non-loopback address.
  it('refuses names answering private, metadata and ULA addresses', async () => {
    const guard = await ctx.use(netGuardService);
    for (const [name, address, kind] of [
      [`private.${ZONE}`, '10.0.0.1', 'private'],
      [`meta.${ZONE}`, '169.254.169.254', 'metadata'],
      [`ula.${ZONE}`, 'fd00::1', 'private'],
    ] as const) {
      const err = await guard.resolve(name).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(BlockedTargetError);
      expect((err as BlockedTargetError).message).toContain('Blocked: private address');
      expect((err as BlockedTargetError).message).not.toContain(address);
      // The classification stays on the error for our own logs.
      expect((err as BlockedTargetError).classification).toMatchObject({ address, kind });
    }
  });

  it('refuses the literal forms at submission with 403 BLOCKED_TARGET, and lets names through to run time', async () => {
    for (const url of [`http://127.0.0.2:${canary.port}/`, `http://2130706434:${canary.port}/`, `http://[::ffff:127.0.0.2]:${canary.port}/`]) {
      const err = await tool.precheck!(ctx, tool.input.parse({ url })).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, url).toBeInstanceOf(Forbidden);
      expect((err as Forbidden).code).toBe('BLOCKED_TARGET');
    }
    await expect(tool.precheck!(ctx, tool.input.parse({ url: `http://canary.${ZONE}:${canary.port}/` }))).resolves.toBeUndefined();
  });

  it('resolves every address of a name and refuses mixed answers (guard API)', async () => {
    const guard = await ctx.use(netGuardService);
    await expect(guard.resolve(`allowed.${ZONE}`)).resolves.toEqual({ address: '127.0.0.1', family: 4 });
    await expect(guard.resolveAll(`mixed.${ZONE}`)).rejects.toBeInstanceOf(BlockedTargetError);
    await expect(guard.resolve(`nothing.${ZONE}`)).rejects.toMatchObject({ name: 'DnsResolutionError', code: 'ENOTFOUND' });
    const noData = await guard.resolve(`empty.${ZONE}`).catch((e: unknown) => e);
    expect(noData).toBeInstanceOf(DnsResolutionError);
    expect((noData as DnsResolutionError).code).toBe('ENODATA');
  });

  it('guards the shared agent other tools use, pinning the name to the checked address', async () => {
    const http = await ctx.use(httpClientService);
    const ok = await request(`http://allowed.${ZONE}:${fixture.port}/pinned`, { dispatcher: http.agent });
    expect(ok.statusCode).toBe(200);
    await ok.body.text();
    expect(fixture.requests.some((q) => q.url === '/pinned' && q.host === `allowed.${ZONE}:${fixture.port}`)).toBe(true);
    for (const url of [`http://canary.${ZONE}:${canary.port}/`, `http://mixed.${ZONE}:${canary.port}/`, `http://127.0.0.2:${canary.port}/`]) {
      await expect(request(url, { dispatcher: http.agent }), url).rejects.toBeInstanceOf(BlockedTargetError);
    }
  });
});

describe('with NETWORK_ALLOWLIST unset', () => {
  it('refuses even the fixture, by name, literal and localhost, and the fixture sees nothing', async () => {
    const before = { connections: fixture.connections, requests: fixture.requests.length };
    const withKnot = context({ DNS_SERVERS: knot.server });
    const systemDns = context({});
    for (const [ctx, url] of [
      [withKnot, `http://allowed.${ZONE}:${fixture.port}/`],
      [withKnot, `http://127.0.0.1:${fixture.port}/`],
      [withKnot, `http://[::1]:${fixture.port}/`],
      // No DNS_SERVERS: the system resolver (and /etc/hosts) answers localhost with loopback.
      [systemDns, `http://localhost:${fixture.port}/`],
    ] as const) {
      const r = await status(ctx, url);
      expect(r.status_code, url).toBe(0);
      expect(r.status_text, url).toMatch(/^Blocked target: .*loopback address|^Blocked: private address\. /);
    }
    expect(fixture.connections).toBe(before.connections);
    expect(fixture.requests.length).toBe(before.requests);
  });
});

describe('the canary', () => {
  // Runs last in this file (vitest keeps declaration order within a file).
  it('saw zero connections and zero requests', () => {
    expect(canary.connections).toBe(0);
    expect(canary.requests).toEqual([]);
  });
});
