// Pure tests of which addresses the network guard lets through. No packets are sent.
import { describe, expect, it } from 'vitest';
import { classifyAddress, describeAddressClass, isAllowlisted, isIpLiteral, parseCidrList, rangeName, type AddressKind } from '../../src/net/address-policy.js';
import { BlockedTargetError } from '../../src/net/errors.js';
import { NetGuard } from '../../src/net/guard.js';
import { Forbidden } from '../../src/errors.js';

const cases: [ip: string, kind: AddressKind, range: string][] = [
  // IPv4
  ['127.0.0.1', 'loopback', '127.0.0.0/8'],
  ['127.255.255.254', 'loopback', '127.0.0.0/8'],
  ['10.1.2.3', 'private', '10.0.0.0/8'],
  ['172.16.0.1', 'private', '172.16.0.0/12'],
  ['172.31.255.255', 'private', '172.16.0.0/12'],
  ['192.168.1.1', 'private', '192.168.0.0/16'],
  ['100.64.0.1', 'cgnat', '100.64.0.0/10'],
  ['100.127.255.255', 'cgnat', '100.64.0.0/10'],
  ['169.254.1.1', 'link-local', '169.254.0.0/16'],
  ['169.254.169.254', 'metadata', '169.254.169.254/32'],
  ['100.100.100.200', 'metadata', '100.100.100.200/32'],
  ['224.0.0.1', 'multicast', '224.0.0.0/4'],
  ['239.255.255.250', 'multicast', '224.0.0.0/4'],
  ['0.0.0.0', 'unspecified', '0.0.0.0/32'],
  ['0.1.2.3', 'reserved', '0.0.0.0/8'],
  ['240.0.0.1', 'reserved', '240.0.0.0/4'],
  ['255.255.255.255', 'broadcast', '255.255.255.255/32'],
  ['192.0.0.8', 'reserved', '192.0.0.0/24'],
  ['192.0.2.10', 'documentation', '192.0.2.0/24'],
  ['198.51.100.7', 'documentation', '198.51.100.0/24'],
  ['203.0.113.99', 'documentation', '203.0.113.0/24'],
  ['192.88.99.1', 'reserved', '192.88.99.0/24'],
  ['198.18.0.1', 'benchmarking', '198.18.0.0/15'],
  ['198.19.255.255', 'benchmarking', '198.18.0.0/15'],
  // IPv6
  ['::', 'unspecified', '::/128'],
  ['::1', 'loopback', '::1/128'],
  ['fe80::1', 'link-local', 'fe80::/10'],
  ['fe80::1%eth0', 'link-local', 'fe80::/10'],
  ['febf:ffff::1', 'link-local', 'fe80::/10'],
  ['fec0::1', 'private', 'fec0::/10'],
  ['fc00::1', 'private', 'fc00::/7'],
  ['fd12:3456::1', 'private', 'fc00::/7'],
  ['fd00:ec2::254', 'metadata', 'fd00:ec2::254/128'],
  ['ff02::1', 'multicast', 'ff00::/8'],
  ['ff0e::1', 'multicast', 'ff00::/8'],
  ['2001:db8::1', 'documentation', '2001:db8::/32'],
  ['3fff::1', 'documentation', '3fff::/20'],
  ['100::1', 'reserved', '100::/64'],
  ['2001:2::1', 'benchmarking', '2001:2::/48'],
  ['2001:10::1', 'reserved', '2001:10::/28'],
  ['2001:20::1', 'reserved', '2001:20::/28'],
  ['64:ff9b:1::a00:1', 'private', '64:ff9b:1::/48'],
  ['4000::1', 'reserved', '4000::/2'],
  ['fe00::1', 'reserved', 'fe00::/9'],
  ['1::1', 'reserved', '::/3'],
];

describe('classifyAddress', () => {
  it.each(cases)('%s is %s (%s)', (ip, kind, range) => {
    expect(classifyAddress(ip)).toMatchObject({ kind, range });
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '100.128.0.1', '192.169.0.1', '223.255.255.255'])('%s is public', (ip) => {
    expect(classifyAddress(ip).kind).toBe('public');
  });

  it.each(['2606:4700:4700::1111', '2a00:1450:4001::1', '2001:4860:4860::8888', '2001:1::1', '2620:4f:8000::1'])('%s is public', (ip) => {
    expect(classifyAddress(ip).kind).toBe('public');
  });

  it('rejects text that is not an address', () => {
    expect(() => classifyAddress('example.com')).toThrow();
    expect(() => classifyAddress('')).toThrow();
  });
});

describe('IPv6 forms carrying an IPv4 address are judged by that IPv4', () => {
  const embedded: [ip: string, kind: AddressKind, range: string, via: string, ipv4: string][] = [
    ['::ffff:127.0.0.1', 'loopback', '127.0.0.0/8', '::ffff:0:0/96', '127.0.0.1'],
    ['::ffff:7f00:1', 'loopback', '127.0.0.0/8', '::ffff:0:0/96', '127.0.0.1'],
    ['::ffff:10.0.0.1', 'private', '10.0.0.0/8', '::ffff:0:0/96', '10.0.0.1'],
    ['::ffff:169.254.169.254', 'metadata', '169.254.169.254/32', '::ffff:0:0/96', '169.254.169.254'],
    ['::ffff:0:127.0.0.1', 'loopback', '127.0.0.0/8', '::ffff:0:0:0/96', '127.0.0.1'],
    ['64:ff9b::127.0.0.1', 'loopback', '127.0.0.0/8', '64:ff9b::/96', '127.0.0.1'],
    ['64:ff9b::a9fe:a9fe', 'metadata', '169.254.169.254/32', '64:ff9b::/96', '169.254.169.254'],
    ['64:ff9b::192.168.0.1', 'private', '192.168.0.0/16', '64:ff9b::/96', '192.168.0.1'],
    ['2002:7f00:1::1', 'loopback', '127.0.0.0/8', '2002::/16', '127.0.0.1'],
    ['2002:a00:1::', 'private', '10.0.0.0/8', '2002::/16', '10.0.0.1'],
    ['::127.0.0.1', 'loopback', '127.0.0.0/8', '::/96', '127.0.0.1'],
    ['::10.0.0.1', 'private', '10.0.0.0/8', '::/96', '10.0.0.1'],
    // Teredo: server 8.8.8.8 (public), client 127.0.0.1 stored inverted as 80ff:fffe.
    ['2001:0:808:808::80ff:fffe', 'loopback', '127.0.0.0/8', '2001::/32', '127.0.0.1'],
    // Teredo with a private server address.
    ['2001:0:a00:1::f7f7:f7f7', 'private', '10.0.0.0/8', '2001::/32', '10.0.0.1'],
  ];

  it.each(embedded)('%s is %s via %s', (ip, kind, range, via, ipv4) => {
    const c = classifyAddress(ip);
    expect(c).toMatchObject({ kind, range });
    expect(c.embedded).toMatchObject({ via, ipv4 });
  });

  it.each(['::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1', '2001:0:808:808::f7f7:f7f7'])('%s carries a public IPv4 and is public', (ip) => {
    expect(classifyAddress(ip).kind).toBe('public');
  });

  it('names the carrying prefix and the IPv4 in the description', () => {
    expect(describeAddressClass(classifyAddress('::ffff:127.0.0.1'))).toBe(
      '::ffff:7f00:1 is an IPv4-mapped address (::ffff:0:0/96) carrying 127.0.0.1, which is a loopback address (127.0.0.0/8)',
    );
    expect(describeAddressClass(classifyAddress('10.0.0.1'))).toBe('10.0.0.1 is a private-network address (10.0.0.0/8)');
    expect(describeAddressClass(classifyAddress('2002:7f00:1::1'))).toBe(
      '2002:7f00:1::1 is a 6to4 address (2002::/16) carrying 127.0.0.1, which is a loopback address (127.0.0.0/8)',
    );
  });
});

describe('isIpLiteral (what must never be sent to a resolver as a name)', () => {
  it.each(['127.0.0.1', '0x7f.1', '127.1', '2130706433', '017700000001', '10.0.0.1.', '::1', '[::1]', '[::ffff:1.2.3.4]', '::10.0.0.1', 'fe80::1%eth0'])(
    '%s is an address',
    (h) => {
      expect(isIpLiteral(h)).toBe(true);
    },
  );
  it.each(['www.example.com', 'cafe.dead', 'deadbeef', '1.2.3.4.5', '0x', 'localhost', '256.1.1.1.1', 'example.test'])('%s is a name', (h) => {
    expect(isIpLiteral(h)).toBe(false);
  });
});

describe('rangeName (for tools that describe addresses)', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['100.64.0.1', 'private'],
    ['169.254.169.254', 'private'],
    ['fd00::1', 'private'],
    ['240.0.0.1', 'reserved'],
    ['224.0.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
  ] as const)('%s → %s', (ip, name) => {
    expect(rangeName(classifyAddress(ip))).toBe(name);
  });
});

describe('NETWORK_ALLOWLIST', () => {
  it('parses CIDRs and bare addresses, and rejects anything else naming it', () => {
    expect(parseCidrList(['127.0.0.0/8', ' ::1 ', '10.0.0.5']).map((c) => c.parsed[1])).toEqual([8, 128, 32]);
    expect(() => parseCidrList(['127.0.0.0/33'])).toThrow(/"127.0.0.0\/33" is not a CIDR/);
    expect(() => parseCidrList(['localhost'])).toThrow(/"localhost"/);
  });

  it('matches addresses inside the ranges only', () => {
    const list = parseCidrList(['127.0.0.1/32', 'fd00::/8']);
    expect(isAllowlisted('127.0.0.1', list)).toBe(true);
    expect(isAllowlisted('127.0.0.2', list)).toBe(false);
    expect(isAllowlisted('fd12::1', list)).toBe(true);
    expect(isAllowlisted('fe80::1', list)).toBe(false);
    expect(isAllowlisted('10.0.0.1', [])).toBe(false);
  });

  it('treats an IPv4-mapped address as its IPv4, but not other embeddings', () => {
    const list = parseCidrList(['127.0.0.1/32']);
    expect(isAllowlisted('::ffff:127.0.0.1', list)).toBe(true);
    expect(isAllowlisted('64:ff9b::127.0.0.1', list)).toBe(false);
  });
});

describe('NetGuard without DNS', () => {
  const guard = new NetGuard({ allowlist: [] });

  it.each([
    ['http://2130706433/', '127.0.0.1'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['http://0x7f000001/', '127.0.0.1'],
    ['http://017700000001/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://0/', '0.0.0.0'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['http://[::1]:8080/', '::1'],
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['http://[fd00:ec2::254]/', 'fd00:ec2::254'],
    ['http://10.0.0.1.:80/', '10.0.0.1'],
  ])('refuses %s (a numeric form of %s)', (url, address) => {
    let caught: unknown;
    try {
      guard.checkUrl(url);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(BlockedTargetError);
    expect((caught as BlockedTargetError).classification?.address).toBe(address);
    expect((caught as BlockedTargetError).message).toMatch(/^Blocked target: /);
    expect((caught as BlockedTargetError).kind).toBe('input');
  });

  it.each(['ftp://example.com/', 'file:///etc/passwd', 'gopher://example.com/', 'javascript:alert(1)', 'data:text/plain,hi'])(
    'refuses the non-http(s) URL %s',
    (url) => {
      expect(() => guard.checkUrl(url)).toThrow(/only http and https URLs are allowed/);
    },
  );

  it('lets public literal addresses and names through (names are checked when resolved)', () => {
    expect(guard.checkUrl('http://8.8.8.8/').hostname).toBe('8.8.8.8');
    expect(guard.checkUrl('https://[2606:4700:4700::1111]/').hostname).toBe('[2606:4700:4700::1111]');
    expect(guard.checkUrl('https://example.com/x').hostname).toBe('example.com');
  });

  it('opens exactly the allowlisted ranges', () => {
    const open = new NetGuard({ allowlist: ['127.0.0.1/32'] });
    expect(open.checkUrl('http://127.0.0.1:1234/').port).toBe('1234');
    expect(open.checkAddress('::ffff:127.0.0.1')).toEqual({ address: '::ffff:127.0.0.1', family: 6 });
    expect(() => open.checkUrl('http://127.0.0.2/')).toThrow(BlockedTargetError);
    expect(() => open.checkAddress('169.254.169.254')).toThrow(/metadata/);
  });

  it('refuses an invalid allowlist when built', () => {
    expect(() => new NetGuard({ allowlist: ['not-a-cidr'] })).toThrow(/not-a-cidr/);
  });

  it('converts a refusal into a 403 BLOCKED_TARGET naming the field', () => {
    let caught: unknown;
    try {
      guard.checkUrl('http://127.0.0.1/');
    } catch (err) {
      caught = err;
    }
    const forbidden = (caught as BlockedTargetError).toForbidden('url');
    expect(forbidden).toBeInstanceOf(Forbidden);
    expect(forbidden.toBody()).toEqual({
      error: 'Blocked target: 127.0.0.1 is a loopback address (127.0.0.0/8); this service does not connect to non-public addresses.',
      code: 'BLOCKED_TARGET',
      field: 'url',
      retry: false,
    });
    expect(forbidden.status).toBe(403);
  });

  it('resolves a literal host without DNS and refuses a blocked one', async () => {
    await expect(guard.resolve('8.8.8.8')).resolves.toEqual({ address: '8.8.8.8', family: 4 });
    await expect(guard.resolve('[::1]')).rejects.toBeInstanceOf(BlockedTargetError);
    await expect(guard.resolve('2130706433')).rejects.toThrow(/127\.0\.0\.1 is a loopback address/);
  });
});
