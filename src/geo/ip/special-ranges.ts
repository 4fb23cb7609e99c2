// Address ranges that are not publicly routed and so have no location: private, loopback, link-local,
// documentation, benchmarking, multicast and reserved space (IANA IPv4/IPv6 Special-Purpose Address
// Registries, RFC 6890 and successors). Globally reachable special ranges (AS112, AMT, anycast relays)
// are left out: they do have operators and locations. Kept here rather than borrowed from the network
// guard: geolocation needs exact names for documentation and benchmarking space, and must not change
// when the guard's policy does.
import { compareV6, ipv4ToNumber } from './ip-address.js';
import ipaddr from 'ipaddr.js';

export type SpecialRangeKind =
  | 'this_network'
  | 'private'
  | 'shared_address_space'
  | 'loopback'
  | 'link_local'
  | 'ietf_protocol_assignments'
  | 'documentation'
  | 'benchmarking'
  | 'multicast'
  | 'reserved'
  | 'broadcast'
  | 'unspecified'
  | 'unique_local'
  | 'site_local'
  | 'discard_only'
  | 'orchid'
  | 'nat64_local_use'
  | 'srv6_sid';

export interface SpecialRange {
  kind: SpecialRangeKind;
  cidr: string;
  /** Where the range is defined. */
  rfc: string;
}

interface V4Entry extends SpecialRange {
  start: number;
  end: number;
  prefix: number;
}
interface V6Entry extends SpecialRange {
  start: Uint32Array;
  end: Uint32Array;
  prefix: number;
}

// Most specific first: the first match wins.
const V4: SpecialRange[] = [
  { kind: 'broadcast', cidr: '255.255.255.255/32', rfc: 'RFC 919' },
  { kind: 'this_network', cidr: '0.0.0.0/8', rfc: 'RFC 791' },
  { kind: 'private', cidr: '10.0.0.0/8', rfc: 'RFC 1918' },
  { kind: 'shared_address_space', cidr: '100.64.0.0/10', rfc: 'RFC 6598' },
  { kind: 'loopback', cidr: '127.0.0.0/8', rfc: 'RFC 1122' },
  { kind: 'link_local', cidr: '169.254.0.0/16', rfc: 'RFC 3927' },
  { kind: 'private', cidr: '172.16.0.0/12', rfc: 'RFC 1918' },
  { kind: 'ietf_protocol_assignments', cidr: '192.0.0.0/24', rfc: 'RFC 6890' },
  { kind: 'documentation', cidr: '192.0.2.0/24', rfc: 'RFC 5737' },
  { kind: 'private', cidr: '192.168.0.0/16', rfc: 'RFC 1918' },
  { kind: 'benchmarking', cidr: '198.18.0.0/15', rfc: 'RFC 2544' },
  { kind: 'documentation', cidr: '198.51.100.0/24', rfc: 'RFC 5737' },
  { kind: 'documentation', cidr: '203.0.113.0/24', rfc: 'RFC 5737' },
  { kind: 'multicast', cidr: '224.0.0.0/4', rfc: 'RFC 5771' },
  { kind: 'reserved', cidr: '240.0.0.0/4', rfc: 'RFC 1112' },
];

const V6: SpecialRange[] = [
  { kind: 'unspecified', cidr: '::/128', rfc: 'RFC 4291' },
  { kind: 'loopback', cidr: '::1/128', rfc: 'RFC 4291' },
  { kind: 'nat64_local_use', cidr: '64:ff9b:1::/48', rfc: 'RFC 8215' },
  { kind: 'discard_only', cidr: '100::/64', rfc: 'RFC 6666' },
  { kind: 'benchmarking', cidr: '2001:2::/48', rfc: 'RFC 5180' },
  { kind: 'orchid', cidr: '2001:10::/28', rfc: 'RFC 4843' },
  { kind: 'orchid', cidr: '2001:20::/28', rfc: 'RFC 7343' },
  { kind: 'documentation', cidr: '2001:db8::/32', rfc: 'RFC 3849' },
  { kind: 'documentation', cidr: '3fff::/20', rfc: 'RFC 9637' },
  { kind: 'srv6_sid', cidr: '5f00::/16', rfc: 'RFC 9602' },
  { kind: 'unique_local', cidr: 'fc00::/7', rfc: 'RFC 4193' },
  { kind: 'link_local', cidr: 'fe80::/10', rfc: 'RFC 4291' },
  { kind: 'site_local', cidr: 'fec0::/10', rfc: 'RFC 3879' },
  { kind: 'multicast', cidr: 'ff00::/8', rfc: 'RFC 4291' },
];

const v4Entries: V4Entry[] = V4.map((r) => {
  const [addr, bits] = r.cidr.split('/') as [string, string];
  const prefix = Number(bits);
  const size = 2 ** (32 - prefix);
  const start = ipv4ToNumber(addr);
  return { ...r, start, end: start + size - 1, prefix };
});

const v6Entries: V6Entry[] = V6.map((r) => {
  const [addr, prefix] = ipaddr.IPv6.parseCIDR(r.cidr);
  const bytes = addr.toByteArray();
  const start = new Uint32Array(4);
  const end = new Uint32Array(4);
  for (let i = 0; i < 4; i++) {
    const word = ((bytes[i * 4]! << 24) | (bytes[i * 4 + 1]! << 16) | (bytes[i * 4 + 2]! << 8) | bytes[i * 4 + 3]!) >>> 0;
    const keep = Math.max(0, Math.min(32, prefix - i * 32));
    const mask = keep === 0 ? 0 : (0xffffffff << (32 - keep)) >>> 0;
    start[i] = (word & mask) >>> 0;
    end[i] = (start[i]! | ~mask) >>> 0;
  }
  return { ...r, start, end, prefix };
});

export function specialRangeV4(ip: number): SpecialRange | null {
  for (const e of v4Entries) if (ip >= e.start && ip <= e.end) return { kind: e.kind, cidr: e.cidr, rfc: e.rfc };
  return null;
}

/** IPv6 outside the global unicast block 2000::/3 (and not listed above) is IETF-reserved. */
export function specialRangeV6(words: Uint32Array): SpecialRange | null {
  for (const e of v6Entries) {
    if (compareV6(words, 0, e.start, 0) >= 0 && compareV6(words, 0, e.end, 0) <= 0) return { kind: e.kind, cidr: e.cidr, rfc: e.rfc };
  }
  if (words[0]! >>> 29 !== 0b001) return { kind: 'reserved', cidr: reservedV6Block(words), rfc: 'RFC 4291' };
  return null;
}

/** The /3 block around a reserved IPv6 address, e.g. 4000::/3. */
function reservedV6Block(words: Uint32Array): string {
  const top = (words[0]! >>> 29) << 13;
  return `${top.toString(16)}::/3`;
}

const DESCRIPTIONS: Record<SpecialRangeKind, string> = {
  this_network: '"this network" range',
  private: 'private range',
  shared_address_space: 'shared address space (carrier-grade NAT)',
  loopback: 'loopback range',
  link_local: 'link-local range',
  ietf_protocol_assignments: 'IETF protocol assignments range',
  documentation: 'documentation range',
  benchmarking: 'benchmarking range',
  multicast: 'multicast range',
  reserved: 'reserved range',
  broadcast: 'limited broadcast address',
  unspecified: 'unspecified address',
  unique_local: 'unique local (private) range',
  site_local: 'deprecated site-local range',
  discard_only: 'discard-only range',
  orchid: 'ORCHID (overlay identifier) range',
  nat64_local_use: 'local-use NAT64 range',
  srv6_sid: 'SRv6 segment identifier range',
};

/** A sentence for the result's `message`, in the spirit of ip-api's "private range". */
export function describeSpecialRange(ip: string, r: SpecialRange): string {
  return `${ip} is in the ${DESCRIPTIONS[r.kind]} ${r.cidr} (${r.rfc}); it is not routed on the public internet and has no location.`;
}
