// dns.lookup: the DNS records of a domain, one record type or all nine. "No such name" and "no records of
// this type" are answers, reported in the result; only a failing DNS server makes the task fail.
import type { Resolver } from 'node:dns/promises';
import { getDomain } from 'tldts';
import { z } from 'zod';
import { ToolError } from '../src/errors.js';
import { normaliseDomainName } from '../src/net/domain-name.js';
import { createResolver, resolverService } from '../src/net/resolver.js';
import { hostLimiterService } from '../src/net/host-limiter.js';
import { defineTool, type ToolContext } from '../src/registry/define-tool.js';

export const RECORD_TYPES = ['A', 'AAAA', 'MX', 'TXT', 'NS', 'CNAME', 'SOA', 'SRV', 'CAA'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];
const TYPE_CHOICES = [...RECORD_TYPES, 'ALL'] as const;

const PER_TRY_TIMEOUT_MS = 2_500;
const TRIES = 2;

const domainInput = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required: the domain name to look up, e.g. example.com' : 'must be a string') })
  .max(1024, 'is too long for a domain name')
  .transform((raw, ctx) => {
    const result = normaliseDomainName(raw);
    if (result.ok) return result.ascii;
    ctx.addIssue({ code: 'custom', message: result.reason, input: raw });
    return z.NEVER;
  })
  .describe('Domain name to look up, e.g. example.com. Unicode names are accepted and converted to punycode.');

const recordTypeInput = z
  .preprocess(
    (v) => (typeof v === 'string' ? v.trim().toUpperCase() : v),
    z.enum(TYPE_CHOICES, { error: (issue) => `must be one of ${TYPE_CHOICES.join(', ')} (got ${JSON.stringify(issue.input)})` }),
  )
  .default('ALL')
  .describe('Record type to query; ALL (the default) queries all nine types. Case-insensitive.');

export const dnsLookupInput = z.strictObject({ domain: domainInput, record_type: recordTypeInput });

// DNS carries these as 16- and 32-bit unsigned integers.
const u16 = z.int().min(0).max(65_535);
const u32 = z.int().min(0).max(4_294_967_295);
const mxRecord = z.object({ priority: u16, exchange: z.string() });
const soaRecord = z.object({
  nsname: z.string(),
  hostmaster: z.string(),
  serial: u32,
  refresh: u32,
  retry: u32,
  expire: u32,
  minttl: u32,
});
const srvRecord = z.object({ priority: u16, weight: u16, port: u16, name: z.string() });
const caaRecord = z.object({
  critical: z.boolean().describe('Issuer-critical flag (flags bit 128).'),
  tag: z.string().describe('e.g. issue, issuewild, iodef.'),
  value: z.string(),
});

const recordsOutput = z
  .object({
    A: z.array(z.string()).optional().describe('IPv4 addresses.'),
    AAAA: z.array(z.string()).optional().describe('IPv6 addresses.'),
    MX: z.array(mxRecord).optional().describe('Mail servers, lowest priority first.'),
    TXT: z.array(z.string()).optional().describe('One string per record, its chunks joined.'),
    NS: z.array(z.string()).optional(),
    CNAME: z.array(z.string()).optional(),
    SOA: soaRecord.nullable().optional().describe('Null when the name has no SOA record.'),
    SRV: z.array(srvRecord).optional(),
    CAA: z.array(caaRecord).optional(),
  })
  .describe('Only the queried types are present; an empty array (SOA: null) means none.');

const notesOutput = z
  .object(Object.fromEntries(RECORD_TYPES.map((t) => [t, z.string().optional()])) as Record<RecordType, z.ZodOptional<z.ZodString>>)
  .describe('Why a queried type is empty, e.g. {"MX": "no MX records"}; empty when every type had records.');

export const dnsLookupOutput = z.object({
  domain: z.string().describe('The name queried, in ASCII (punycode) form.'),
  exists: z.boolean().describe('False when the name does not exist (NXDOMAIN).'),
  records: recordsOutput,
  notes: notesOutput,
  queried_at: z.string().meta({ format: 'date-time' }).describe('When the lookup started (ISO 8601, UTC).'),
});

type Records = z.output<typeof recordsOutput>;
type Notes = z.output<typeof notesOutput>;

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

export default defineTool({
  name: 'dns.lookup',
  title: 'DNS lookup',
  description:
    'DNS records of a domain: A, AAAA, MX, TXT, NS, CNAME, SOA, SRV, CAA, or ALL (default; one query per type). ' +
    '`records` holds only the queried types. No such name: `exists: false`; a type without records: an empty ' +
    'array (SOA: null) and a note; neither is an error. Query SRV by full name ' +
    '(_sip._tcp.example.com). Fails only when DNS servers fail (retried).',
  input: dnsLookupInput,
  output: dnsLookupOutput,
  price: '0.001',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  timeoutMs: 10_000,
  example: { domain: 'example.com', record_type: 'MX' },

  // Each zone's servers see a few of our queries at a time (HOST_CONCURRENCY), however many a batch holds.
  // Not grouped by zone (no batchKey): nothing is shared between names, and a batch's names spread over
  // zones keep every worker slot busy instead of queueing behind one zone's limit.
  async run(ctx, input) {
    const limiter = await ctx.use(hostLimiterService);
    return limiter.run(`dns ${zoneOf(input.domain)}`, () => lookupRecords(ctx, input), ctx.signal);
  },
});

/** The registrable domain (example.co.uk for www.example.co.uk): whose servers answer for the name. */
function zoneOf(domain: string): string {
  return getDomain(domain, { allowPrivateDomains: true }) ?? domain;
}

async function lookupRecords(ctx: ToolContext, input: z.output<typeof dnsLookupInput>): Promise<z.output<typeof dnsLookupOutput>> {
  ctx.signal.throwIfAborted();
  const queriedAt = new Date().toISOString();
  const types: readonly RecordType[] = input.record_type === 'ALL' ? RECORD_TYPES : [input.record_type];

  // A resolver of our own, on the shared one's servers: cancelling it on abort stops only this task's queries.
  const shared = await ctx.use(resolverService);
  const resolver = createResolver({ servers: shared.getServers(), timeoutMs: PER_TRY_TIMEOUT_MS, tries: TRIES });
  const onAbort = () => resolver.cancel();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  let answers: TypeAnswer[];
  try {
    answers = await Promise.all(types.map((type) => answerFor(resolver, input.domain, type)));
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    resolver.cancel();
  }
  ctx.signal.throwIfAborted();

  const faults = answers.filter((a): a is Extract<TypeAnswer, { kind: 'fault' }> => a.kind === 'fault');
  if (faults.length > 0) {
    const detail = faults.map((f) => `${f.type}: ${FAULT_TEXT[f.code] ?? `DNS error ${f.code}`}`).join('; ');
    const permanent = faults.every((f) => PERMANENT_FAULTS.has(f.code));
    throw new ToolError(`DNS lookup of ${input.domain} failed (${detail}).`, permanent ? 'permanent' : 'transient');
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
  ctx.log.debug('dns.lookup answered', { domain: input.domain, types: types.length, exists });
  return { domain: input.domain, exists, records, notes, queried_at: queriedAt };
}
