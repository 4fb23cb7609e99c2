// The DNS side of dns.lookup: one query per record type, each answer sorted and shaped, and "no such
// name" / "no records of this type" told apart from a failing server (only the latter is an error).
import type { Resolver } from 'node:dns/promises';
import { ToolError } from '../errors.js';

export const RECORD_TYPES = ['A', 'AAAA', 'MX', 'TXT', 'NS', 'CNAME', 'SOA', 'SRV', 'CAA'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

export interface Records {
  A?: string[];
  AAAA?: string[];
  MX?: { priority: number; exchange: string }[];
  TXT?: string[];
  NS?: string[];
  CNAME?: string[];
  SOA?: { nsname: string; hostmaster: string; serial: number; refresh: number; retry: number; expire: number; minttl: number } | null;
  SRV?: { priority: number; weight: number; port: number; name: string }[];
  CAA?: { critical: boolean; tag: string; value: string }[];
}
export type Notes = Partial<Record<RecordType, string>>;

/** What one per-type query came back with. */
type TypeAnswer =
  | { kind: 'records'; type: RecordType; value: NonNullable<Records[RecordType]> }
  | { kind: 'empty'; type: RecordType; nxdomain: boolean }
  | { kind: 'fault'; type: RecordType; code: string };

// c-ares codes that mean the server answered "not here" rather than failed.
const NO_DATA = 'ENODATA';
const NO_SUCH_NAME = 'ENOTFOUND';
// Faults where asking again will not help (the server does not implement the type, or rejects the query).
const PERMANENT_FAULTS = new Set(['ENOTIMP', 'EFORMERR', 'EBADQUERY', 'EBADNAME', 'EBADFAMILY']);

const FAULT_TEXT: Record<string, string> = {
  ESERVFAIL: 'the DNS server failed (SERVFAIL)',
  ETIMEOUT: 'the DNS server did not answer in time',
  EREFUSED: 'the DNS server refused the query (REFUSED)',
  ECONNREFUSED: 'could not reach the DNS server',
  ENOTIMP: 'the DNS server does not implement this query (NOTIMP)',
  EFORMERR: 'the DNS server rejected the query as malformed (FORMERR)',
  EBADRESP: 'the DNS server sent a malformed reply',
};

async function queryType(resolver: Resolver, name: string, type: RecordType): Promise<Records[RecordType]> {
  switch (type) {
    case 'A':
      return resolver.resolve4(name);
    case 'AAAA':
      return resolver.resolve6(name);
    case 'MX':
      return (await resolver.resolveMx(name))
        .map((r) => ({ priority: r.priority, exchange: r.exchange }))
        .sort((a, b) => a.priority - b.priority || a.exchange.localeCompare(b.exchange));
    case 'TXT':
      // A TXT record is a list of ≤255-byte strings that together form one value (SPF, DKIM keys).
      return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
    case 'NS':
      return resolver.resolveNs(name);
    case 'CNAME':
      return resolver.resolveCname(name);
    case 'SOA': {
      const soa = await resolver.resolveSoa(name);
      const { nsname, hostmaster, serial, refresh, retry, expire, minttl } = soa;
      return { nsname, hostmaster, serial, refresh, retry, expire, minttl };
    }
    case 'SRV':
      return (await resolver.resolveSrv(name))
        .map((r) => ({ priority: r.priority, weight: r.weight, port: r.port, name: r.name }))
        .sort((a, b) => a.priority - b.priority || b.weight - a.weight);
    case 'CAA':
      return (await resolver.resolveCaa(name)).map(caaEntry);
  }
}

/** node gives `{critical: 0|128, issue: 'ca.example'}`: the tag is the one key besides `critical`. */
function caaEntry(record: object): { critical: boolean; tag: string; value: string } {
  const entries = Object.entries(record as Record<string, unknown>);
  const flags = Number(entries.find(([k]) => k === 'critical')?.[1] ?? 0);
  const [tag, value] = entries.find(([k]) => k !== 'critical') ?? ['', ''];
  return { critical: (flags & 128) !== 0, tag, value: String(value) };
}

async function answerFor(resolver: Resolver, name: string, type: RecordType): Promise<TypeAnswer> {
  try {
    const value = await queryType(resolver, name, type);
    // A CNAME whose target has no data of this type answers with records but none of the type asked for.
    if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) return { kind: 'empty', type, nxdomain: false };
    return { kind: 'records', type, value };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'UNKNOWN';
    if (code === NO_DATA) return { kind: 'empty', type, nxdomain: false };
    if (code === NO_SUCH_NAME) return { kind: 'empty', type, nxdomain: true };
    return { kind: 'fault', type, code };
  }
}

function emptyNote(type: RecordType, nxdomain: boolean): string {
  if (nxdomain) return 'the name does not exist (NXDOMAIN)';
  if (type === 'SOA') return 'no SOA record (only a zone apex has one)';
  if (type === 'CNAME') return 'no CNAME record (the name is not an alias)';
  return `no ${type} records`;
}

/**
 * Queries each type in parallel; throws a ToolError (transient unless every fault is permanent) when a
 * server fails. A cancelled lookup throws the abort reason, not the ECANCELLED faults it caused.
 */
export async function lookupRecords(
  resolver: Resolver,
  domain: string,
  types: readonly RecordType[],
  signal: AbortSignal,
): Promise<{ records: Records; notes: Notes; exists: boolean }> {
  const answers = await Promise.all(types.map((type) => answerFor(resolver, domain, type)));
  signal.throwIfAborted();
  const faults = answers.filter((a): a is Extract<TypeAnswer, { kind: 'fault' }> => a.kind === 'fault');
  if (faults.length > 0) {
    const detail = faults.map((f) => `${f.type}: ${FAULT_TEXT[f.code] ?? `DNS error ${f.code}`}`).join('; ');
    const permanent = faults.every((f) => PERMANENT_FAULTS.has(f.code));
    throw new ToolError(`DNS lookup of ${domain} failed (${detail}).`, permanent ? 'permanent' : 'transient');
  }

  const records: Records = {};
  const notes: Notes = {};
  for (const answer of answers) {
    if (answer.kind === 'records') {
      (records as Record<RecordType, unknown>)[answer.type] = answer.value;
    } else if (answer.kind === 'empty') {
      (records as Record<RecordType, unknown>)[answer.type] = answer.type === 'SOA' ? null : [];
      notes[answer.type] = emptyNote(answer.type, answer.nxdomain);
    }
  }
  const exists = !answers.every((a) => a.kind === 'empty' && a.nxdomain);
  return { records, notes, exists };
}
