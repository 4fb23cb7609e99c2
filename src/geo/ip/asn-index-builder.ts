// Converts @ip-location-db/asn's numeric CSV files ("start,end,asn,organisation", inclusive ranges,
// addresses as decimal integers) into the compact index of asn-index.ts. Lines are read as a stream so a
// lazy build at first use does not stall the event loop for seconds.
import fs from 'node:fs';
import readline from 'node:readline';
import { ASN_INDEX_FORMAT, NO_ORG, encodeAsnIndex, type AsnIndexHeader, type AsnTables } from './asn-index.js';

export interface AsnRow {
  start: bigint;
  end: bigint;
  asn: number;
  organization: string;
}

export interface AsnCsvSources {
  v4Csv: string;
  v6Csv: string;
  source: AsnIndexHeader['source'];
}

export async function buildAsnIndexFromCsv(src: AsnCsvSources): Promise<Buffer> {
  const [v4, v6] = await Promise.all([readAsnCsv(src.v4Csv, 32), readAsnCsv(src.v6Csv, 128)]);
  return buildAsnIndex(v4, v6, src.source);
}

export async function readAsnCsv(file: string, bits: 32 | 128): Promise<AsnRow[]> {
  const rows: AsnRow[] = [];
  const max = (1n << BigInt(bits)) - 1n;
  const lines = readline.createInterface({ input: fs.createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  let lineNo = 0;
  for await (const line of lines) {
    lineNo++;
    if (line.trim() === '') continue;
    const row = parseAsnCsvLine(line);
    if (!row || row.start > row.end || row.end > max) throw new Error(`${file}:${lineNo}: not a valid ASN range row`);
    rows.push(row);
  }
  return rows;
}

/** One CSV line; the organisation may be quoted (with "" for a quote) and contain commas. */
export function parseAsnCsvLine(line: string): AsnRow | null {
  const c1 = line.indexOf(',');
  const c2 = line.indexOf(',', c1 + 1);
  const c3 = line.indexOf(',', c2 + 1);
  if (c1 < 0 || c2 < 0 || c3 < 0) return null;
  const startText = line.slice(0, c1);
  const endText = line.slice(c1 + 1, c2);
  const asnText = line.slice(c2 + 1, c3);
  if (!/^\d+$/.test(startText) || !/^\d+$/.test(endText) || !/^\d+$/.test(asnText)) return null;
  let organization = line.slice(c3 + 1).trim();
  if (organization.startsWith('"') && organization.endsWith('"') && organization.length >= 2) {
    organization = organization.slice(1, -1).replaceAll('""', '"');
  }
  return { start: BigInt(startText), end: BigInt(endText), asn: Number(asnText), organization };
}

/**
 * Sorts rows, resolves overlaps (the narrower range wins where two overlap, as it is the more specific
 * announcement), merges touching ranges of the same AS and organisation, and encodes the index.
 */
export function buildAsnIndex(v4Rows: AsnRow[], v6Rows: AsnRow[], source: AsnIndexHeader['source']): Buffer {
  const v4 = normaliseRanges(v4Rows);
  const v6 = normaliseRanges(v6Rows);
  const orgIds = new Map<string, number>();
  const orgList: string[] = [];
  const orgId = (name: string): number => {
    if (name === '') return NO_ORG;
    let id = orgIds.get(name);
    if (id === undefined) {
      id = orgList.length;
      orgList.push(name);
      orgIds.set(name, id);
    }
    return id;
  };

  const tables: AsnTables = {
    v4Starts: Uint32Array.from(v4, (r) => Number(r.start)),
    v4Ends: Uint32Array.from(v4, (r) => Number(r.end)),
    v4Asn: Uint32Array.from(v4, (r) => r.asn),
    v4Org: Uint32Array.from(v4, (r) => orgId(r.organization)),
    v6Starts: new Uint32Array(v6.length * 4),
    v6Ends: new Uint32Array(v6.length * 4),
    v6Asn: Uint32Array.from(v6, (r) => r.asn),
    v6Org: Uint32Array.from(v6, (r) => orgId(r.organization)),
    orgOffsets: new Uint32Array(0),
    orgBytes: new Uint8Array(0),
  };
  v6.forEach((r, i) => {
    writeWords(tables.v6Starts, i * 4, r.start);
    writeWords(tables.v6Ends, i * 4, r.end);
  });

  const encoded = orgList.map((s) => Buffer.from(s, 'utf8'));
  tables.orgOffsets = new Uint32Array(encoded.length + 1);
  let total = 0;
  encoded.forEach((b, i) => {
    tables.orgOffsets[i] = total;
    total += b.length;
  });
  tables.orgOffsets[encoded.length] = total;
  tables.orgBytes = new Uint8Array(Buffer.concat(encoded, total));

  const header: AsnIndexHeader = {
    format: ASN_INDEX_FORMAT,
    v4Count: v4.length,
    v6Count: v6.length,
    orgCount: orgList.length,
    orgBytes: total,
    source,
    built_at: new Date().toISOString(),
  };
  return encodeAsnIndex(header, tables);
}

function writeWords(target: Uint32Array, offset: number, value: bigint): void {
  for (let i = 3; i >= 0; i--) {
    target[offset + i] = Number(value & 0xffffffffn);
    value >>= 32n;
  }
}

interface PendingRange extends AsnRow {
  /** Width of the row as published, kept when the row is trimmed, so "narrower wins" compares originals. */
  span: bigint;
}

/**
 * Sorted, non-overlapping ranges where, at every address, the narrowest published range containing it wins
 * (ties between equally wide ranges are settled deterministically but arbitrarily); touching ranges of the
 * same AS and organisation are then merged. Overlaps are rare in the data (a handful of rows), so clarity
 * wins over speed.
 */
export function normaliseRanges(rows: AsnRow[]): AsnRow[] {
  const pending: PendingRange[] = rows.map((r) => ({ ...r, span: r.end - r.start })).sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const out: PendingRange[] = [];
  for (let i = 0; i < pending.length; i++) {
    const next = pending[i]!;
    const prev = out[out.length - 1];
    if (!prev || next.start > prev.end) {
      out.push({ ...next });
    } else if (next.span <= prev.span) {
      // `next` wins inside its span; what `prev` covered beyond it is queued again in order.
      if (prev.end > next.end) insertSorted(pending, i + 1, { ...prev, start: next.end + 1n });
      if (next.start === prev.start) out.pop();
      else prev.end = next.start - 1n;
      out.push({ ...next });
    } else if (next.end > prev.end) {
      // `prev` wins where they overlap: `next` keeps only what lies after it, queued again in order.
      insertSorted(pending, i + 1, { ...next, start: prev.end + 1n });
    }
  }
  const merged: AsnRow[] = [];
  for (const { start, end, asn, organization } of out) {
    const last = merged[merged.length - 1];
    if (last && last.end + 1n === start && last.asn === asn && last.organization === organization) last.end = end;
    else merged.push({ start, end, asn, organization });
  }
  return merged;
}

function insertSorted(list: PendingRange[], from: number, row: PendingRange): void {
  let lo = from;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.start <= row.start) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, row);
}
