// Parses an IP address into the numeric form the range tables search: IPv4 as one unsigned 32-bit
// number, IPv6 as four big-endian 32-bit words. IPv4-mapped (::ffff:a.b.c.d) and well-known NAT64
// (64:ff9b::a.b.c.d) addresses are reduced to the IPv4 address they carry, since that is the host
// whose location is meant.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface ParsedIp {
  family: 4 | 6;
  /** The address looked up: the input, or the IPv4 address an IPv4-mapped/NAT64 address carries. */
  lookupAddress: string;
  /** IPv4 as an unsigned 32-bit number (family 4 only). */
  v4: number;
  /** IPv6 as four big-endian 32-bit words (family 6 only). */
  v6: Uint32Array;
  /** Set when an IPv6 input was reduced to the IPv4 address it embeds. */
  embeddedIn: 'ipv4_mapped' | 'nat64' | null;
}

const EMPTY_V6 = new Uint32Array(4);

/** Returns null for anything that is not a plain IPv4 or IPv6 address (zone ids are rejected). */
export function parseIp(input: string): ParsedIp | null {
  const text = input.trim();
  const family = isIP(text);
  if (family === 4) {
    const v4 = ipv4ToNumber(text);
    return { family: 4, lookupAddress: text, v4, v6: EMPTY_V6, embeddedIn: null };
  }
  if (family !== 6 || text.includes('%')) return null;
  const words = ipv6ToWords(text);
  const embeddedIn = embeddedIpv4Kind(words);
  if (embeddedIn) {
    const v4 = words[3]!;
    return { family: 4, lookupAddress: numberToIpv4(v4), v4, v6: EMPTY_V6, embeddedIn };
  }
  return { family: 6, lookupAddress: text, v4: 0, v6: words, embeddedIn: null };
}

function embeddedIpv4Kind(w: Uint32Array): ParsedIp['embeddedIn'] {
  if (w[0] === 0 && w[1] === 0 && w[2] === 0x0000ffff) return 'ipv4_mapped';
  if (w[0] === 0x0064ff9b && w[1] === 0 && w[2] === 0) return 'nat64';
  return null;
}

/**
 * IPv6 text (validated by net.isIP) → four 32-bit words. Written here because ipaddr.js reads the
 * deprecated IPv4-compatible form ::a.b.c.d as IPv4-mapped (::ffff:a.b.c.d), which is another address.
 */
export function ipv6ToWords(text: string): Uint32Array {
  let groups: number[];
  const parseGroups = (part: string): number[] => {
    if (part === '') return [];
    const out: number[] = [];
    for (const g of part.split(':')) {
      if (g.includes('.')) {
        const v4 = ipv4ToNumber(g);
        out.push(Math.floor(v4 / 65536), v4 % 65536);
      } else {
        out.push(parseInt(g, 16));
      }
    }
    return out;
  };
  const gap = text.indexOf('::');
  if (gap >= 0) {
    const head = parseGroups(text.slice(0, gap));
    const tail = parseGroups(text.slice(gap + 2));
    groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  } else {
    groups = parseGroups(text);
  }
  const words = new Uint32Array(4);
  for (let i = 0; i < 4; i++) words[i] = (groups[i * 2]! * 65536 + groups[i * 2 + 1]!) >>> 0;
  return words;
}

/** Dotted quad → unsigned 32-bit number. The caller has validated the text (net.isIP). */
export function ipv4ToNumber(text: string): number {
  let value = 0;
  let part = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      value = value * 256 + part;
      part = 0;
    } else {
      part = part * 10 + (c - 48);
    }
  }
  return value * 256 + part;
}

export function numberToIpv4(n: number): string {
  return `${(n >>> 24) & 255}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

/** The network address of `prefix` bits around an IPv4 number, as CIDR text. */
export function ipv4Cidr(n: number, prefix: number): string {
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  return `${numberToIpv4((n & mask) >>> 0)}/${prefix}`;
}

/** The network address of `prefix` bits around IPv6 words, as compressed CIDR text. */
export function ipv6Cidr(words: Uint32Array, prefix: number): string {
  const bytes: number[] = [];
  for (let i = 0; i < 4; i++) {
    const keep = Math.max(0, Math.min(32, prefix - i * 32));
    const mask = keep === 0 ? 0 : (0xffffffff << (32 - keep)) >>> 0;
    const w = (words[i]! & mask) >>> 0;
    bytes.push((w >>> 24) & 255, (w >>> 16) & 255, (w >>> 8) & 255, w & 255);
  }
  return `${ipaddr.fromByteArray(bytes).toString()}/${prefix}`;
}

/** Compares two IPv6 word arrays (or a word array at an offset of a packed table). */
export function compareV6(a: Uint32Array, aOffset: number, b: Uint32Array, bOffset: number): number {
  for (let i = 0; i < 4; i++) {
    const x = a[aOffset + i]!;
    const y = b[bOffset + i]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
