// dns.lookup: the DNS records of a domain, one record type or all nine. "No such name" and "no records of
// this type" are answers, reported in the result; only a failing DNS server makes the task fail.
import { z } from 'zod';
import { lookupRecords, RECORD_TYPES, type RecordType } from '../src/dns/lookup-records.js';
import { normaliseDomainName } from '../src/net/domain-name.js';
import { createResolver, resolverService } from '../src/net/resolver.js';
import { ResolverPool } from '../src/net/resolver-pool.js';
import { defineService } from '../src/registry/services.js';
import { hostLimiterService } from '../src/net/host-limiter.js';
import { defineTool, type ToolContext } from '../src/registry/define-tool.js';
import { lazyModule } from '../src/registry/lazy-module.js';

// The public-suffix list (tldts) names each name's zone: loaded with the first lookup, not when listed.
const publicSuffixModule = lazyModule(() => import('tldts'));

export { RECORD_TYPES };
const TYPE_CHOICES = [...RECORD_TYPES, 'ALL'] as const;

const PER_TRY_TIMEOUT_MS = 2_500;
const TRIES = 2;

/** dns.lookup's resolvers: the shared resolver's servers, this tool's timeout and tries. */
const lookupResolvers = defineService({
  name: 'dns-lookup-resolvers',
  create: async ({ use }) => {
    const shared = await use(resolverService);
    return new ResolverPool(() => createResolver({ servers: shared.getServers(), timeoutMs: PER_TRY_TIMEOUT_MS, tries: TRIES }));
  },
  dispose: (pool) => pool.close(),
});

const domainInput = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required: the domain name to look up, e.g. example.com' : 'must be a string') })
  .max(1024, 'is too long for a domain name')
  .transform((raw, ctx) => {
    const result = normaliseDomainName(raw);
    if (result.ok) return result.ascii;
    ctx.addIssue({ code: 'custom', message: result.reason, input: raw });
    return z.NEVER;
  });

const recordTypeInput = z
  .preprocess(
    (v) => (typeof v === 'string' ? v.trim().toUpperCase() : v),
    // The default inside the pipe, so the published schema shows it (outside, the preprocess hides it).
    z.enum(TYPE_CHOICES, { error: (issue) => `must be one of ${TYPE_CHOICES.join(', ')} (got ${JSON.stringify(issue.input)})` }).default('ALL'),
  )
  .describe('Case-insensitive.');

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

// A record keyed by type rather than nine named properties: the same keys (propertyNames in /v1/tools), and a
// quarter of the size in tools/list, whose output schemas leave propertyNames out.
const notesOutput = z
  .partialRecord(z.enum(RECORD_TYPES), z.string())
  .describe('Why a queried type is empty, e.g. {"MX": "no MX records"}; empty when every type had records.');

export const dnsLookupOutput = z.object({
  domain: z.string().describe('The name queried, in ASCII (punycode) form.'),
  exists: z.boolean().describe('False when the name does not exist (NXDOMAIN).'),
  records: recordsOutput,
  notes: notesOutput,
  queried_at: z.string().meta({ format: 'date-time' }).describe('When the lookup started (ISO 8601, UTC).'),
});

export default defineTool({
  name: 'dns.lookup',
  title: 'DNS lookup',
  description:
    'DNS records of a domain, one type or all nine. No such name: exists: false; a type without records: [] (SOA: null) and a note, not an error. ' +
    'SRV by full name (_sip._tcp.example.com).',
  input: dnsLookupInput,
  output: dnsLookupOutput,
  price: '0.001',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  timeoutMs: 10_000,
  example: { domain: 'example.com', record_type: 'MX' },

  // Each zone's servers (the registrable domain's) see a few of our queries at a time (HOST_CONCURRENCY),
  // however many a batch holds. Not grouped by zone (no batchKey): nothing is shared between names, and a
  // batch's names spread over zones keep every worker slot busy instead of queueing behind one zone's limit.
  async run(ctx, input) {
    const [limiter, { getDomain }] = await Promise.all([ctx.use(hostLimiterService), publicSuffixModule()]);
    return limiter.run(`dns ${getDomain(input.domain, { allowPrivateDomains: true }) ?? input.domain}`, () => lookup(ctx, input), ctx.signal);
  },
});

async function lookup(ctx: ToolContext, input: z.output<typeof dnsLookupInput>): Promise<z.output<typeof dnsLookupOutput>> {
  ctx.signal.throwIfAborted();
  const queriedAt = new Date().toISOString();
  const types: readonly RecordType[] = input.record_type === 'ALL' ? RECORD_TYPES : [input.record_type];

  // A resolver of this task's own while it runs (a pooled one, on the shared one's servers): cancelling
  // it on abort stops only this task's queries.
  const pool = await ctx.use(lookupResolvers);
  const answer = await pool.use(ctx.signal, (resolver) => lookupRecords(resolver, input.domain, types, ctx.signal));
  const { records, notes, exists } = answer;
  ctx.log.debug('dns.lookup answered', { domain: input.domain, types: types.length, exists });
  return { domain: input.domain, exists, records, notes, queried_at: queriedAt };
}
