import { describe, expect, it } from 'vitest';
import { parseAddress } from '../../src/email/syntax.js';

function ok(input: string) {
  const r = parseAddress(input);
  if (!r.ok) throw new Error(`expected ${input} to be valid: ${r.reason}`);
  return r.address;
}

function reason(input: string): string {
  const r = parseAddress(input);
  if (r.ok) throw new Error(`expected ${input} to be invalid`);
  return r.reason;
}

describe('email syntax', () => {
  it.each([
    'jane@example.com',
    'jane.doe+tag@sub.example.co.uk',
    "o'brien@example.ie",
    'x!#$%&*+-/=?^_`{|}~@example.com',
    '"john doe"@example.com',
    '"a@b"@example.com',
    '"quote\\"inside"@example.com',
    'a@xn--bcher-kva.de',
    '1234@123.example',
  ])('accepts %s', (address) => {
    expect(parseAddress(address).ok).toBe(true);
  });

  it.each([
    ['no-at-sign', /no @/],
    ['@example.com', /local part .* empty/],
    ['jane@', /domain .* empty/],
    ['.jane@example.com', /starts or ends with a dot/],
    ['jane.@example.com', /starts or ends with a dot/],
    ['ja..ne@example.com', /two dots/],
    ['ja ne@example.com', /invalid character/],
    ['ja(ne)@example.com', /invalid character/],
    ['"unterminated@example.com', /unterminated|invalid character/],
    ['jane@localhost', /at least two labels/],
    ['jane@exa_mple.com', /invalid domain label/],
    ['jane@-example.com', /invalid domain label/],
    ['jane@example-.com', /invalid domain label/],
    ['jane@example..com', /empty label/],
    ['jane@example.com.', /ends with a dot/],
    ['jane@[192.0.2.1]', /address literals/],
    ['jane@1.2.3.4', /numeric/],
    ['jane@0x7f.1', /numeric/],
    ['jane@ex ample.com', /invalid character/],
  ])('refuses %s', (address, why) => {
    expect(reason(address)).toMatch(why);
  });

  it('enforces the 64-octet local part and 254-octet address limits', () => {
    expect(parseAddress(`${'a'.repeat(64)}@example.com`).ok).toBe(true);
    expect(reason(`${'a'.repeat(65)}@example.com`)).toMatch(/64 octets/);
    // 64 + 1 + 189 = 254
    const domain189 = `${'b'.repeat(61)}.${'c'.repeat(61)}.${'d'.repeat(61)}.com`;
    expect(domain189.length).toBe(189);
    expect(parseAddress(`${'a'.repeat(64)}@${domain189}`).ok).toBe(true);
    expect(reason(`${'a'.repeat(64)}@e${domain189}`)).toMatch(/254 octets/);
    expect(reason(`jane@${'x'.repeat(64)}.com`)).toMatch(/63 characters/);
  });

  it('counts UTF-8 octets, not characters, in the local part', () => {
    expect(parseAddress(`${'é'.repeat(32)}@example.com`).ok).toBe(true);
    expect(reason(`${'é'.repeat(33)}@example.com`)).toMatch(/64 octets/);
  });

  it('normalises: domain lower-cased, IDN as Unicode for people and A-label for SMTP, local case kept', () => {
    const a = ok('  Jane.Doe@BÜCHER.De ');
    expect(a).toMatchObject({
      local: 'Jane.Doe',
      domainAscii: 'xn--bcher-kva.de',
      domainUnicode: 'bücher.de',
      normalized: 'Jane.Doe@bücher.de',
      smtpAddress: 'Jane.Doe@xn--bcher-kva.de',
      needsSmtpUtf8: false,
    });
    expect(ok('x@XN--BCHER-KVA.de').normalized).toBe('x@bücher.de');
  });

  it('drops quotes that are not needed and keeps the ones that are', () => {
    expect(ok('"jane"@example.com').normalized).toBe('jane@example.com');
    expect(ok('"jane.doe"@example.com').local).toBe('jane.doe');
    expect(ok('"john doe"@example.com').local).toBe('"john doe"');
    expect(ok('"a..b"@example.com').local).toBe('"a..b"');
  });

  it('marks UTF-8 local parts as needing SMTPUTF8 (RFC 6531)', () => {
    expect(ok('josé@example.com').needsSmtpUtf8).toBe(true);
    expect(ok('用户@例子.广告').domainAscii).toBe('xn--fsqu00a.xn--4rr70v');
  });

  it('splits at the last @ so quoted local parts may contain one', () => {
    expect(ok('"a@b"@example.com').local).toBe('"a@b"');
  });
});
