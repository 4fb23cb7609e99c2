// dns.lookup input validation and domain-name normalisation: pure, no DNS traffic.
import { describe, expect, it } from 'vitest';
import { normaliseDomainName } from '../../src/net/domain-name.js';
import { jsonSchemaOf, zodToInvalidInput } from '../../src/registry/registry.js';
import tool from '../../tools/dns.lookup.js';

function rejection(raw: unknown): { field: string | undefined; message: string } {
  const parsed = tool.input.safeParse(raw);
  if (parsed.success) throw new Error(`expected ${JSON.stringify(raw)} to be rejected, got ${JSON.stringify(parsed.data)}`);
  const err = zodToInvalidInput(parsed.error);
  return { field: err.field, message: err.message };
}

describe('normaliseDomainName', () => {
  it.each([
    ['example.com', 'example.com'],
    ['Example.COM', 'example.com'],
    ['example.com.', 'example.com'],
    ['  example.com  ', 'example.com'],
    ['bücher.test', 'xn--bcher-kva.test'],
    ['BÜCHER.test.', 'xn--bcher-kva.test'],
    ['xn--bcher-kva.test', 'xn--bcher-kva.test'],
    ['☃.test', 'xn--n3h.test'],
    ['_sip._tcp.example.com', '_sip._tcp.example.com'],
    ['_dmarc.example.com', '_dmarc.example.com'],
    ['a-b--c.example', 'a-b--c.example'],
    ['com', 'com'],
    [`${'a'.repeat(63)}.test`, `${'a'.repeat(63)}.test`],
  ])('%s → %s', (raw, ascii) => {
    expect(normaliseDomainName(raw)).toEqual({ ok: true, ascii });
  });

  it.each([
    ['', /must not be empty/],
    ['   ', /must not be empty/],
    ['.', /root name/],
    ['127.0.0.1', /is an IP address/],
    ['::1', /is an IP address/],
    ['[2001:db8::1]', /is an IP address/],
    ['1.2.3', /looks like an IP address/],
    ['host.123', /looks like an IP address|cannot be encoded/],
    ['exa mple.com', /character " " is not allowed/],
    ['a%41.test', /character "%" is not allowed/],
    ['*.example.com', /character "\*" is not allowed/],
    ['user@example.com', /character "@" is not allowed/],
    ['http://example.com', /character ":" is not allowed/],
    ['a..b.test', /empty label/],
    ['.example.com', /empty label/],
    ['-a.test', /label "-a" is not valid/],
    ['a-.test', /label "a-" is not valid/],
    [`${'a'.repeat(64)}.test`, /at most 63/],
    [`${'abcdefghi.'.repeat(26)}test`, /at most 253/],
    ['xn--zz.test', /cannot be encoded/],
    ['xn--invalid-.test', /not valid punycode/],
  ])('rejects %j', (raw, reason) => {
    const result = normaliseDomainName(raw);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });
});

describe('dns.lookup input schema', () => {
  it('defaults record_type to ALL and returns the ASCII domain', () => {
    expect(tool.input.parse({ domain: 'Bücher.Test.' })).toEqual({ domain: 'xn--bcher-kva.test', record_type: 'ALL' });
  });

  it.each(['a', 'aaaa', 'Mx', 'txt', 'ns', 'cname', 'soa', 'srv', 'caa', 'all', ' MX '])('accepts record_type %j in any case', (type) => {
    expect(tool.input.parse({ domain: 'example.com', record_type: type }).record_type).toBe(type.trim().toUpperCase());
  });

  it('names the field and the problem for a bad domain', () => {
    expect(rejection({ domain: 'exa mple.com' })).toEqual({
      field: 'domain',
      message: 'domain: "exa mple.com" is not a valid domain name: the character " " is not allowed',
    });
    expect(rejection({ domain: '10.0.0.1' })).toEqual({ field: 'domain', message: 'domain: "10.0.0.1" is an IP address, not a domain name' });
    expect(rejection({})).toEqual({ field: 'domain', message: 'domain: is required: the domain name to look up, e.g. example.com' });
    expect(rejection({ domain: 42 })).toEqual({ field: 'domain', message: 'domain: must be a string' });
    expect(rejection({ domain: 'x'.repeat(2000) })).toMatchObject({ field: 'domain' });
  });

  it('names the field and lists the choices for a bad record type', () => {
    expect(rejection({ domain: 'example.com', record_type: 'PTR' })).toEqual({
      field: 'record_type',
      message: 'record_type: must be one of A, AAAA, MX, TXT, NS, CNAME, SOA, SRV, CAA, ALL (got "PTR")',
    });
    expect(rejection({ domain: 'example.com', record_type: 7 })).toMatchObject({ field: 'record_type' });
  });

  it('rejects unknown fields instead of silently ignoring them', () => {
    expect(rejection({ domain: 'example.com', type: 'MX' })).toEqual({ field: 'type', message: 'type: is not a known field' });
  });

  it('publishes the choices in its JSON Schema and accepts its own example', () => {
    const schema = jsonSchemaOf(tool.input, 'input') as { properties: { record_type: { enum: string[] } }; required: string[] };
    expect(schema.properties.record_type.enum).toEqual(['A', 'AAAA', 'MX', 'TXT', 'NS', 'CNAME', 'SOA', 'SRV', 'CAA', 'ALL']);
    expect(schema.required).toEqual(['domain']);
    expect(tool.input.safeParse(tool.example).success).toBe(true);
    expect(() => jsonSchemaOf(tool.output, 'output')).not.toThrow();
  });
});
