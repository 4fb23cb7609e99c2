// The compact ASN index: sorted, non-overlapping address ranges with their AS number and an offset into
// a deduplicated table of organisation names. Loading is a file read plus typed-array views (no parsing
// per row), and a lookup is a binary search.
//
// Layout (little-endian, every section 4-byte aligned):
//   magic "AUASNIX1" | u32 header length | header JSON (padded to 4)
//   v4 starts u32[n4] | v4 ends u32[n4] | v4 asn u32[n4] | v4 org u32[n4]
//   v6 starts u32[4*n6] | v6 ends u32[4*n6] | v6 asn u32[n6] | v6 org u32[n6]   (IPv6 as 4 big-endian words)
//   org offsets u32[orgs+1] | org names UTF-8
import os from 'node:os';
import { compareV6 } from './ip-address.js';

export const ASN_INDEX_MAGIC = 'AUASNIX1';
export const ASN_INDEX_FORMAT = 1;

export interface AsnIndexHeader {
  format: number;
  v4Count: number;
  v6Count: number;
  orgCount: number;
  orgBytes: number;
  /** Where the data came from: npm package name and version, and the date its version names. */
  source: { package: string; version: string; build_date: string | null };
  built_at: string;
}

export interface AsnMatch {
  asn: number;
  organization: string | null;
  /** Id of the organisation name in the string table (NO_ORG when none). */
  orgId: number;
}

export interface AsnTables {
  v4Starts: Uint32Array;
  v4Ends: Uint32Array;
  v4Asn: Uint32Array;
  v4Org: Uint32Array;
  v6Starts: Uint32Array;
  v6Ends: Uint32Array;
  v6Asn: Uint32Array;
  v6Org: Uint32Array;
  orgOffsets: Uint32Array;
  orgBytes: Uint8Array;
}

/** Org id meaning "no organisation name in the data". */
export const NO_ORG = 0xffffffff;

export class AsnIndex {
  private readonly orgNames: (string | undefined)[];
  private readonly decoder = new TextDecoder();

  constructor(
    readonly header: AsnIndexHeader,
    private readonly t: AsnTables,
  ) {
    this.orgNames = new Array<string | undefined>(header.orgCount);
  }

  get rangeCount(): number {
    return this.header.v4Count + this.header.v6Count;
  }

  /** Index of the IPv4 range holding `ip`, or -1. */
  findV4(ip: number): number {
    const { v4Starts: starts, v4Ends: ends } = this.t;
    let lo = 0;
    let hi = starts.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid]! <= ip) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found >= 0 && ends[found]! >= ip ? found : -1;
  }

  /** Index of the IPv6 range holding `words`, or -1. */
  findV6(words: Uint32Array): number {
    const { v6Starts: starts, v6Ends: ends } = this.t;
    let lo = 0;
    let hi = this.header.v6Count - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (compareV6(starts, mid * 4, words, 0) <= 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found >= 0 && compareV6(ends, found * 4, words, 0) >= 0 ? found : -1;
  }

  v4Asn(i: number): number {
    return this.t.v4Asn[i]!;
  }

  v4OrgId(i: number): number {
    return this.t.v4Org[i]!;
  }

  v6Asn(i: number): number {
    return this.t.v6Asn[i]!;
  }

  v6OrgId(i: number): number {
    return this.t.v6Org[i]!;
  }

  lookupV4(ip: number): AsnMatch | null {
    const i = this.findV4(ip);
    return i < 0 ? null : this.match(this.t.v4Asn[i]!, this.t.v4Org[i]!);
  }

  lookupV6(words: Uint32Array): AsnMatch | null {
    const i = this.findV6(words);
    return i < 0 ? null : this.match(this.t.v6Asn[i]!, this.t.v6Org[i]!);
  }

  /** Decoded once per organisation, then kept. */
  orgName(id: number): string | null {
    if (id === NO_ORG) return null;
    let name = this.orgNames[id];
    if (name === undefined) {
      name = this.decoder.decode(this.t.orgBytes.subarray(this.t.orgOffsets[id]!, this.t.orgOffsets[id + 1]!));
      this.orgNames[id] = name;
    }
    return name;
  }

  private match(asn: number, orgId: number): AsnMatch {
    return { asn, organization: this.orgName(orgId), orgId };
  }
}

/** Serialises tables into the file layout above. */
export function encodeAsnIndex(header: AsnIndexHeader, t: AsnTables): Buffer {
  const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
  const headerPadded = align4(headerBytes.length);
  const arrays = [t.v4Starts, t.v4Ends, t.v4Asn, t.v4Org, t.v6Starts, t.v6Ends, t.v6Asn, t.v6Org, t.orgOffsets];
  const arraysBytes = arrays.reduce((n, a) => n + a.byteLength, 0);
  const total = 8 + 4 + headerPadded + arraysBytes + align4(t.orgBytes.length);
  const out = Buffer.alloc(total);
  out.write(ASN_INDEX_MAGIC, 0, 'latin1');
  out.writeUInt32LE(headerBytes.length, 8);
  headerBytes.copy(out, 12);
  let offset = 12 + headerPadded;
  for (const a of arrays) {
    for (let i = 0; i < a.length; i++) out.writeUInt32LE(a[i]!, offset + i * 4);
    offset += a.byteLength;
  }
  Buffer.from(t.orgBytes.buffer, t.orgBytes.byteOffset, t.orgBytes.length).copy(out, offset);
  return out;
}

/** Parses a file produced by encodeAsnIndex. Throws on a wrong magic or format version. */
export function decodeAsnIndex(file: Buffer): AsnIndex {
  if (file.length < 12 || file.toString('latin1', 0, 8) !== ASN_INDEX_MAGIC) throw new Error('not an ASN index file (bad magic)');
  const headerLength = file.readUInt32LE(8);
  const header = JSON.parse(file.toString('utf8', 12, 12 + headerLength)) as AsnIndexHeader;
  if (header.format !== ASN_INDEX_FORMAT) throw new Error(`ASN index format ${header.format}, expected ${ASN_INDEX_FORMAT}`);
  // Typed-array views need 4-byte alignment of the underlying memory; copy once if the Buffer is not.
  const data = file.byteOffset % 4 === 0 ? file : Buffer.from(file);
  let offset = 12 + align4(headerLength);
  const u32 = (count: number): Uint32Array => {
    const view = readU32(data, offset, count);
    offset += count * 4;
    return view;
  };
  const { v4Count: n4, v6Count: n6, orgCount } = header;
  const expected = offset + 4 * (4 * n4 + 10 * n6 + orgCount + 1) + header.orgBytes;
  if (data.length < expected) throw new Error('ASN index file is truncated');
  const tables: AsnTables = {
    v4Starts: u32(n4),
    v4Ends: u32(n4),
    v4Asn: u32(n4),
    v4Org: u32(n4),
    v6Starts: u32(n6 * 4),
    v6Ends: u32(n6 * 4),
    v6Asn: u32(n6),
    v6Org: u32(n6),
    orgOffsets: u32(orgCount + 1),
    orgBytes: new Uint8Array(data.buffer, data.byteOffset + offset, header.orgBytes),
  };
  return new AsnIndex(header, tables);
}

function readU32(data: Buffer, offset: number, count: number): Uint32Array {
  if (offset + count * 4 > data.length) throw new Error('ASN index file is truncated');
  if (os.endianness() === 'LE') return new Uint32Array(data.buffer, data.byteOffset + offset, count);
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) out[i] = data.readUInt32LE(offset + i * 4);
  return out;
}

function align4(n: number): number {
  return (n + 3) & ~3;
}
