// Which IP addresses a tool may connect to on a stranger's behalf. Pure: no sockets, no DNS.
// Every special-purpose range from the IANA IPv4/IPv6 registries that must not be reached from the
// service is listed with the CIDR it matched, so a refusal can name it. IPv6 forms that carry an IPv4
// address (IPv4-mapped, IPv4-compatible, SIIT, NAT64, 6to4, Teredo) are judged by the IPv4 they carry.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  | 'cgnat'
  | 'link-local'
  | 'metadata'
  | 'multicast'
  | 'reserved'
  | 'unspecified'
  | 'documentation'
  | 'benchmarking'
  | 'broadcast';

export interface AddressClass {
  kind: AddressKind;
  /** The CIDR that decided the kind (for an embedded IPv4, the IPv4 range it falls in). */
  range: string;
  /** Normalised form of the address that was classified. */
  address: string;
  /** For IPv6 forms that carry an IPv4 address: the carrying prefix and the IPv4 it carries. */
  embedded?: { via: string; name: string; ipv4: string };
}

interface RangeRule {
  cidr: string;
  kind: AddressKind;
  parsed: [ipaddr.IPv4 | ipaddr.IPv6, number];
}

const rule = (cidr: string, kind: AddressKind): RangeRule => ({ cidr, kind, parsed: ipaddr.parseCIDR(cidr) });

// Most specific first: the first match wins.
const IPV4_RULES: readonly RangeRule[] = [
  rule('169.254.169.254/32', 'metadata'), // AWS, GCP, Azure, OpenStack instance metadata
  rule('100.100.100.200/32', 'metadata'), // Alibaba Cloud metadata (inside CGNAT)
  rule('192.0.0.192/32', 'metadata'), // Oracle Cloud metadata (inside 192.0.0.0/24)
  rule('255.255.255.255/32', 'broadcast'),
  rule('0.0.0.0/32', 'unspecified'),
  rule('0.0.0.0/8', 'reserved'), // "this network": Linux connects 0.x to the local host
  rule('10.0.0.0/8', 'private'),
  rule('172.16.0.0/12', 'private'),
  rule('192.168.0.0/16', 'private'),
  rule('100.64.0.0/10', 'cgnat'),
  rule('127.0.0.0/8', 'loopback'),
  rule('169.254.0.0/16', 'link-local'),
  rule('192.0.0.0/24', 'reserved'), // IETF protocol assignments
  rule('192.0.2.0/24', 'documentation'), // TEST-NET-1
  rule('198.51.100.0/24', 'documentation'), // TEST-NET-2
  rule('203.0.113.0/24', 'documentation'), // TEST-NET-3
  rule('192.88.99.0/24', 'reserved'), // deprecated 6to4 relay anycast
  rule('198.18.0.0/15', 'benchmarking'),
  rule('224.0.0.0/4', 'multicast'),
  rule('240.0.0.0/4', 'reserved'),
];

const IPV6_RULES: readonly RangeRule[] = [
  rule('::/128', 'unspecified'),
  rule('::1/128', 'loopback'),
  rule('fd00:ec2::254/128', 'metadata'), // AWS IMDS over IPv6 (inside ULA)
  rule('64:ff9b:1::/48', 'private'), // local-use NAT64 (RFC 8215): reaches an operator's own translator
  rule('100::/64', 'reserved'), // discard-only (RFC 6666)
  rule('2001:2::/48', 'benchmarking'),
  rule('2001:10::/28', 'reserved'), // deprecated ORCHID
  rule('2001:20::/28', 'reserved'), // ORCHIDv2
  rule('2001:db8::/32', 'documentation'),
  rule('3fff::/20', 'documentation'), // RFC 9637
  rule('5f00::/16', 'reserved'), // SRv6 SIDs (RFC 9602)
  rule('fc00::/7', 'private'), // unique local
  rule('fe80::/10', 'link-local'),
  rule('fec0::/10', 'private'), // deprecated site-local
  rule('ff00::/8', 'multicast'),
  // Only 2000::/3 is allocated for global unicast; the rest of the space is reserved by IANA.
  rule('::/3', 'reserved'),
  rule('4000::/2', 'reserved'),
  rule('8000::/2', 'reserved'),
  rule('c000::/3', 'reserved'),
  rule('e000::/4', 'reserved'),
  rule('f000::/5', 'reserved'),
  rule('f800::/6', 'reserved'),
  rule('fe00::/9', 'reserved'),
];

interface EmbeddingRule {
  cidr: string;
  name: string;
  parsed: [ipaddr.IPv6, number];
  /** The IPv4 addresses the IPv6 address carries; every one must be public. */
  extract(parts: number[]): ipaddr.IPv4[];
}

const v4 = (hi: number, lo: number): ipaddr.IPv4 => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
const last32 = (p: number[]): ipaddr.IPv4[] => [v4(p[6] ?? 0, p[7] ?? 0)];
const embedding = (cidr: string, name: string, extract: (p: number[]) => ipaddr.IPv4[]): EmbeddingRule => ({
  cidr,
  name,
  parsed: ipaddr.IPv6.parseCIDR(cidr),
  extract,
});

// Checked before IPV6_RULES: these prefixes sit inside ranges the table above would call reserved or public.
const EMBEDDING_RULES: readonly EmbeddingRule[] = [
  embedding('::ffff:0:0/96', 'IPv4-mapped', last32),
  embedding('::ffff:0:0:0/96', 'IPv4-translated (SIIT)', last32),
  embedding('64:ff9b::/96', 'NAT64', last32),
  // Teredo: server IPv4 in bits 32-63, client IPv4 obfuscated (inverted) in the last 32 bits.
  embedding('2001::/32', 'Teredo', (p) => [v4(p[2] ?? 0, p[3] ?? 0), v4(~(p[6] ?? 0) & 0xffff, ~(p[7] ?? 0) & 0xffff)]),
  embedding('2002::/16', '6to4', (p) => [v4(p[1] ?? 0, p[2] ?? 0)]),
  // Deprecated IPv4-compatible addresses; :: and ::1 are matched before this (see classifyParsed).
  embedding('::/96', 'IPv4-compatible', last32),
];

/** Parses an IP address, accepting brackets, a zone id, and the numeric IPv4 forms inet_aton and URLs accept. */
export function parseIp(ip: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  return ipaddr.parse(bare.includes(':') ? dottedSuffixToHex(bare) : bare.replace(/\.$/, ''));
}

// ipaddr.js reads "::10.0.0.1" (IPv4-compatible) as "::ffff:10.0.0.1" (IPv4-mapped); spelling the dotted
// tail as two hex groups first keeps the prefix exactly as written.
const DOTTED_TAIL = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(%.*)?$/;

function dottedSuffixToHex(text: string): string {
  const m = DOTTED_TAIL.exec(text);
  if (!m) return text;
  const octets = m.slice(2, 6).map(Number);
  if (octets.some((o) => o > 255)) return text;
  const [a, b, c, d] = octets as [number, number, number, number];
  return `${m[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}${m[6] ?? ''}`;
}

// Dotted parts in decimal, octal or 0x-hex: the only shapes inet_aton-style IPv4 parsing accepts.
const NUMERIC_IPV4 = /^(?:0x[0-9a-f]*|\d+)(?:\.(?:0x[0-9a-f]*|\d+)){0,3}\.?$/i;

/** True when the text is an IP address in any form parseIp accepts (so a resolver must not see it as a name). */
export function isIpLiteral(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIP(bare) !== 0) return true;
  if (bare.includes(':')) return ipaddr.IPv6.isValid(dottedSuffixToHex(bare));
  // ipaddr's IPv4 check throws internally on names (~100 µs each): only ask it about numeric shapes.
  return NUMERIC_IPV4.test(bare) && ipaddr.IPv4.isValid(bare.replace(/\.$/, ''));
}

function matchRules(addr: ipaddr.IPv4 | ipaddr.IPv6, rules: readonly RangeRule[]): RangeRule | undefined {
  return rules.find((r) => r.parsed[0].kind() === addr.kind() && addr.match(r.parsed));
}

function classifyV4(addr: ipaddr.IPv4): AddressClass {
  const hit = matchRules(addr, IPV4_RULES);
  return hit ? { kind: hit.kind, range: hit.cidr, address: addr.toString() } : { kind: 'public', range: '0.0.0.0/0', address: addr.toString() };
}

function classifyParsed(addr: ipaddr.IPv4 | ipaddr.IPv6): AddressClass {
  if (addr.kind() === 'ipv4') return classifyV4(addr as ipaddr.IPv4);
  const v6 = addr as ipaddr.IPv6;
  const address = v6.toString();
  // :: and ::1 lie inside ::/96 (IPv4-compatible) but are themselves special.
  const exact = matchRules(v6, IPV6_RULES.slice(0, 2));
  if (exact) return { kind: exact.kind, range: exact.cidr, address };
  for (const e of EMBEDDING_RULES) {
    if (!v6.match(e.parsed)) continue;
    const carried = e.extract(v6.parts);
    const verdicts = carried.map(classifyV4);
    const blocked = verdicts.find((v) => v.kind !== 'public');
    const decisive = blocked ?? verdicts[0]!;
    return { kind: decisive.kind, range: decisive.range, address, embedded: { via: e.cidr, name: e.name, ipv4: decisive.address } };
  }
  const hit = matchRules(v6, IPV6_RULES);
  return hit ? { kind: hit.kind, range: hit.cidr, address } : { kind: 'public', range: '2000::/3', address };
}

/** Classifies an IPv4 or IPv6 address. Throws on text that is not an IP address. */
export function classifyAddress(ip: string): AddressClass {
  return classifyParsed(parseIp(ip));
}

const KIND_DESCRIPTIONS: Record<AddressKind, string> = {
  public: 'a public address',
  loopback: 'a loopback address',
  private: 'a private-network address',
  cgnat: 'a carrier-grade NAT (shared) address',
  'link-local': 'a link-local address',
  metadata: 'a cloud metadata service address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
  unspecified: 'the unspecified address',
  documentation: 'a documentation-only address',
  benchmarking: 'a benchmarking-only address',
  broadcast: 'the broadcast address',
};

/** "127.0.0.1 is a loopback address (127.0.0.0/8)", naming the embedded IPv4 when there is one. */
export function describeAddressClass(c: AddressClass): string {
  const what = `${KIND_DESCRIPTIONS[c.kind]} (${c.range})`;
  if (!c.embedded) return `${c.address} is ${what}`;
  const article = c.embedded.name.startsWith('IPv4') ? 'an' : 'a';
  return `${c.address} is ${article} ${c.embedded.name} address (${c.embedded.via}) carrying ${c.embedded.ipv4}, which is ${what}`;
}

/**
 * A coarse name for a range, for tools that describe an address rather than connect to it
 * (ip.geolocate): loopback, private (RFC 1918, CGNAT, link-local, ULA, metadata) or reserved (the rest).
 */
export function rangeName(c: AddressClass): 'public' | 'loopback' | 'private' | 'reserved' {
  switch (c.kind) {
    case 'public':
    case 'loopback':
    case 'private':
      return c.kind;
    case 'cgnat':
    case 'link-local':
    case 'metadata':
      return 'private';
    default:
      return 'reserved';
  }
}

export interface Cidr {
  text: string;
  parsed: [ipaddr.IPv4 | ipaddr.IPv6, number];
}

/** Parses CIDRs such as NETWORK_ALLOWLIST's; a bare address means that one address. Throws naming the bad entry. */
export function parseCidrList(entries: readonly string[]): Cidr[] {
  return entries.map((raw) => {
    const text = raw.trim();
    try {
      if (text.includes('/')) return { text, parsed: ipaddr.parseCIDR(text) };
      const addr = ipaddr.parse(text);
      return { text, parsed: [addr, addr.kind() === 'ipv4' ? 32 : 128] };
    } catch {
      throw new Error(`"${raw}" is not a CIDR range (expected e.g. 127.0.0.0/8 or fd00::/8)`);
    }
  });
}

/**
 * True when the address lies in one of the ranges. An IPv4-mapped IPv6 address (how a dual-stack socket
 * shows an IPv4 peer) also matches the IPv4 ranges, since it reaches the same host.
 */
export function isAllowlisted(ip: string | ipaddr.IPv4 | ipaddr.IPv6, allowlist: readonly Cidr[]): boolean {
  if (allowlist.length === 0) return false;
  const addr = typeof ip === 'string' ? parseIp(ip) : ip;
  const candidates: (ipaddr.IPv4 | ipaddr.IPv6)[] = [addr];
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) candidates.push((addr as ipaddr.IPv6).toIPv4Address());
  return allowlist.some(({ parsed }) => candidates.some((c) => c.kind() === parsed[0].kind() && c.match(parsed)));
}
