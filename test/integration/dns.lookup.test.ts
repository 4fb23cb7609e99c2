// dns.lookup against a real Knot DNS server on loopback, serving every record type the tool knows.
import dgram from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidInput, ToolError } from '../../src/errors.js';
import { ToolRegistry } from '../../src/registry/registry.js';
import tool from '../../tools/dns.lookup.js';
import { startKnot, type KnotServer } from '../support/knot.js';
import { makeToolContext } from '../support/tool-context.js';

const LONG_CHUNK = 'k'.repeat(255);

const EXAMPLE_ZONE = [
  '@ 300 IN SOA ns1.example.test. hostmaster.example.test. 2024010101 7200 900 1209600 300',
  '@ IN NS ns1.example.test.',
  '@ IN NS ns2.example.test.',
  'ns1 IN A 127.0.0.53',
  'ns2 IN A 127.0.0.54',
  '@ IN A 127.0.0.10',
  '@ IN A 127.0.0.11',
  '@ IN AAAA ::1',
  '@ IN AAAA 2001:db8::10',
  '@ IN MX 20 mx2.example.test.',
  '@ IN MX 10 mx1',
  '@ IN TXT "v=spf1 -all"',
  '@ IN TXT "part-one " "part-two " "part-three"',
  `@ IN TXT "${LONG_CHUNK}" "tail"`,
  '@ IN CAA 0 issue "ca.example.net"',
  '@ IN CAA 128 issuewild ";"',
  '@ IN CAA 0 iodef "mailto:security@example.test"',
  'www IN CNAME example.test.',
  'dangling IN CNAME missing.example.test.',
  'mail-only IN A 127.0.0.20',
  '_sip._tcp IN SRV 20 0 5061 sip3.example.test.',
  '_sip._tcp IN SRV 10 40 5060 sip2.example.test.',
  '_sip._tcp IN SRV 10 60 5060 sip1.example.test.',
];

const EXPECTED_APEX = {
  A: ['127.0.0.10', '127.0.0.11'],
  AAAA: ['2001:db8::10', '::1'],
  MX: [
    { priority: 10, exchange: 'mx1.example.test' },
    { priority: 20, exchange: 'mx2.example.test' },
  ],
  TXT: [`${LONG_CHUNK}tail`, 'part-one part-two part-three', 'v=spf1 -all'],
  NS: ['ns1.example.test', 'ns2.example.test'],
  CNAME: [],
  SOA: {
    nsname: 'ns1.example.test',
    hostmaster: 'hostmaster.example.test',
    serial: 2024010101,
    refresh: 7200,
    retry: 900,
    expire: 1209600,
    minttl: 300,
  },
  SRV: [],
  CAA: [
    { critical: false, tag: 'iodef', value: 'mailto:security@example.test' },
    { critical: false, tag: 'issue', value: 'ca.example.net' },
    { critical: true, tag: 'issuewild', value: ';' },
  ],
};

const NXDOMAIN_NOTE = 'the name does not exist (NXDOMAIN)';
const ALL_TYPES = ['A', 'AAAA', 'MX', 'TXT', 'NS', 'CNAME', 'SOA', 'SRV', 'CAA'];

let knot: KnotServer;

beforeAll(async () => {
  knot = await startKnot([
    { origin: 'example.test', records: EXAMPLE_ZONE },
    { origin: 'xn--bcher-kva.test', records: ['@ IN A 127.0.0.30', '@ IN MX 5 mail.xn--bcher-kva.test.'] },
  ]);
}, 30_000);

afterAll(async () => {
  await knot?.stop();
});

/** Runs the tool as the engine would: input through the schema, then run() with a real context. */
async function lookup(raw: Record<string, unknown>, dnsServers = knot.server) {
  const input = tool.input.parse(raw);
  const ctx = makeToolContext({ DNS_SERVERS: dnsServers });
  try {
    const result = await tool.run(ctx, input);
    // The result must match the published output schema exactly (nothing stripped, nothing missing).
    expect(tool.output.parse(result)).toEqual(result);
    return result;
  } finally {
    await ctx.close();
  }
}

/** Order-insensitive view of the types whose order the DNS does not define. */
function sorted<T>(values: T[] | undefined): T[] {
  const key = (v: T) => JSON.stringify(v);
  return [...(values ?? [])].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

describe('dns.lookup against Knot', () => {
  it('ALL returns every type of the zone apex, each queried separately', async () => {
    const result = await lookup({ domain: 'example.test' });
    expect(result.domain).toBe('example.test');
    expect(result.exists).toBe(true);
    expect(Object.keys(result.records)).toEqual(ALL_TYPES);
    expect(sorted(result.records.A)).toEqual(EXPECTED_APEX.A);
    expect(sorted(result.records.AAAA)).toEqual(EXPECTED_APEX.AAAA);
    expect(result.records.MX).toEqual(EXPECTED_APEX.MX);
    expect(sorted(result.records.TXT)).toEqual(EXPECTED_APEX.TXT);
    expect(sorted(result.records.NS)).toEqual(EXPECTED_APEX.NS);
    expect(result.records.CNAME).toEqual([]);
    expect(result.records.SOA).toEqual(EXPECTED_APEX.SOA);
    expect(result.records.SRV).toEqual([]);
    expect(sorted(result.records.CAA)).toEqual(EXPECTED_APEX.CAA);
    expect(result.notes).toEqual({ CNAME: 'no CNAME record (the name is not an alias)', SRV: 'no SRV records' });
    expect(new Date(result.queried_at).toISOString()).toBe(result.queried_at);
  });

  it.each(ALL_TYPES)('record_type %s returns only that type, equal to its part of ALL', async (type) => {
    const result = await lookup({ domain: 'example.test', record_type: type });
    expect(Object.keys(result.records)).toEqual([type]);
    const value = (result.records as Record<string, unknown>)[type];
    const expected = (EXPECTED_APEX as Record<string, unknown>)[type];
    expect(Array.isArray(value) && type !== 'MX' ? sorted(value) : value).toEqual(expected);
  });

  it('accepts a lower-case record type', async () => {
    const result = await lookup({ domain: 'example.test', record_type: 'mx' });
    expect(result.records).toEqual({ MX: EXPECTED_APEX.MX });
    expect(result.notes).toEqual({});
  });

  it('returns SRV records of a service name, by priority then weight', async () => {
    const result = await lookup({ domain: '_sip._tcp.example.test', record_type: 'SRV' });
    expect(result.records.SRV).toEqual([
      { priority: 10, weight: 60, port: 5060, name: 'sip1.example.test' },
      { priority: 10, weight: 40, port: 5060, name: 'sip2.example.test' },
      { priority: 20, weight: 0, port: 5061, name: 'sip3.example.test' },
    ]);
  });

  it('reports a CNAME and answers the other types from its target', async () => {
    const cname = await lookup({ domain: 'www.example.test', record_type: 'CNAME' });
    expect(cname.records).toEqual({ CNAME: ['example.test'] });

    const all = await lookup({ domain: 'www.example.test' });
    expect(all.exists).toBe(true);
    expect(all.records.CNAME).toEqual(['example.test']);
    expect(sorted(all.records.A)).toEqual(EXPECTED_APEX.A);
    expect(all.records.MX).toEqual(EXPECTED_APEX.MX);
    expect(all.notes.CNAME).toBeUndefined();
  });

  it('a CNAME to a missing name: the alias exists, its target types say NXDOMAIN', async () => {
    const result = await lookup({ domain: 'dangling.example.test' });
    expect(result.exists).toBe(true);
    expect(result.records.CNAME).toEqual(['missing.example.test']);
    expect(result.records.A).toEqual([]);
    expect(result.notes.A).toBe(NXDOMAIN_NOTE);
  });

  it('a name that does not exist is a complete result with exists: false', async () => {
    const result = await lookup({ domain: 'nope.example.test' });
    expect(result.exists).toBe(false);
    expect(result.records).toEqual({ A: [], AAAA: [], MX: [], TXT: [], NS: [], CNAME: [], SOA: null, SRV: [], CAA: [] });
    expect(result.notes).toEqual(Object.fromEntries(ALL_TYPES.map((t) => [t, NXDOMAIN_NOTE])));

    const single = await lookup({ domain: 'nope.example.test', record_type: 'MX' });
    expect(single).toMatchObject({ exists: false, records: { MX: [] }, notes: { MX: NXDOMAIN_NOTE } });
    expect(Object.keys(single.records)).toEqual(['MX']);
  });

  it('a type with no records (NODATA) is an empty result that says so', async () => {
    const mx = await lookup({ domain: 'mail-only.example.test', record_type: 'MX' });
    expect(mx).toMatchObject({ domain: 'mail-only.example.test', exists: true, records: { MX: [] }, notes: { MX: 'no MX records' } });

    const soa = await lookup({ domain: 'mail-only.example.test', record_type: 'soa' });
    expect(soa.records).toEqual({ SOA: null });
    expect(soa.notes).toEqual({ SOA: 'no SOA record (only a zone apex has one)' });

    const all = await lookup({ domain: 'mail-only.example.test', record_type: 'ALL' });
    expect(all.records.A).toEqual(['127.0.0.20']);
    expect(Object.keys(all.notes)).toEqual(ALL_TYPES.filter((t) => t !== 'A'));
  });

  it('looks up an internationalised name by its punycode form', async () => {
    for (const domain of ['bücher.test', 'BÜCHER.test.', 'xn--bcher-kva.test']) {
      const result = await lookup({ domain });
      expect(result.domain).toBe('xn--bcher-kva.test');
      expect(result.records.A).toEqual(['127.0.0.30']);
      expect(result.records.MX).toEqual([{ priority: 5, exchange: 'mail.xn--bcher-kva.test' }]);
    }
  });

  it('normalises case and a trailing dot; the result names the ASCII form', async () => {
    const result = await lookup({ domain: 'Example.TEST.', record_type: 'A' });
    expect(result.domain).toBe('example.test');
    expect(sorted(result.records.A)).toEqual(EXPECTED_APEX.A);
  });

  it('a server that refuses the query fails the task as transient', async () => {
    // Knot refuses names outside the zones it serves.
    const input = tool.input.parse({ domain: 'not-served.test', record_type: 'A' });
    const ctx = makeToolContext({ DNS_SERVERS: knot.server });
    try {
      const failure = await tool.run(ctx, input).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(failure).toBeInstanceOf(ToolError);
      expect((failure as ToolError).kind).toBe('transient');
      expect((failure as ToolError).message).toMatch(/not-served\.test.*A: the DNS server refused the query \(REFUSED\)/);
    } finally {
      await ctx.close();
    }
  });

  it('stops its queries when the task is cancelled', async () => {
    // A loopback "server" that never answers: the lookup can only end through the abort.
    const silent = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', () => resolve()));
    const { port } = silent.address();
    const ctx = makeToolContext({ DNS_SERVERS: `127.0.0.1:${port}` });
    try {
      silent.once('message', () => ctx.abort());
      const input = tool.input.parse({ domain: 'example.test' });
      await expect(tool.run(ctx, input)).rejects.toThrow('cancelled by test');
    } finally {
      await ctx.close();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('rejects invalid input before any query, naming the field', () => {
    const registry = new ToolRegistry([tool]);
    const cases: [Record<string, unknown>, string][] = [
      [{ domain: 'exa mple.test' }, 'domain'],
      [{ domain: '127.0.0.1' }, 'domain'],
      [{ domain: '' }, 'domain'],
      [{ domain: `${'a'.repeat(64)}.test` }, 'domain'],
      [{ domain: 'xn--zz.test' }, 'domain'],
      [{}, 'domain'],
      [{ domain: 'example.test', record_type: 'PTR' }, 'record_type'],
    ];
    for (const [raw, field] of cases) {
      let caught: unknown;
      try {
        registry.parseInput('dns.lookup', raw);
      } catch (err) {
        caught = err;
      }
      expect(caught, JSON.stringify(raw)).toBeInstanceOf(InvalidInput);
      expect((caught as InvalidInput).field).toBe(field);
      expect((caught as InvalidInput).status).toBe(400);
      expect((caught as InvalidInput).message.startsWith(`${field}: `)).toBe(true);
    }
  });
});
