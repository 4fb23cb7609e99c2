// The network guard: every outbound connection a tool makes on a caller's behalf asks it first. It allows
// only http/https URLs and public addresses (plus NETWORK_ALLOWLIST), resolves names itself, and refuses a
// name if ANY of its addresses is blocked, so the address it hands back can be pinned for the connection.
import { lookup as systemLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ToolError } from '../errors.js';
import { defineService } from '../registry/services.js';
import { classifyAddress, describeAddressClass, isAllowlisted, isIpLiteral, parseCidrList, parseIp, type AddressClass, type Cidr } from './address-policy.js';
import { BlockedTargetError, DnsResolutionError } from './errors.js';
import { resolverService } from './resolver.js';
import type { AbortLike } from './deadline.js';
import { abortable } from './abortable.js';

export interface ResolvedAddress {
  /** Normalised IP address to connect to. */
  address: string;
  family: 4 | 6;
}

/** The part of node:dns/promises Resolver the guard uses (DNS_SERVERS mode). */
export interface AddressResolver {
  resolve4(host: string): Promise<string[]>;
  resolve6(host: string): Promise<string[]>;
}

export interface NetGuardOptions {
  /** CIDRs that are allowed even though they are not public (NETWORK_ALLOWLIST). */
  allowlist?: readonly string[];
  /** Resolve names with this (A and AAAA) instead of the system's getaddrinfo (which honours /etc/hosts). */
  resolver?: AddressResolver | undefined;
}

export interface AddressVerdict {
  readonly allowed: boolean;
  readonly allowlisted: boolean;
  readonly classification: AddressClass;
}

const ALLOWED_PROTOCOLS = new Set(['http:', 'https:']);
const VERDICT_CACHE_SIZE = 4096;

export class NetGuard {
  private readonly allowlist: readonly Cidr[];
  private readonly resolver: AddressResolver | undefined;
  private readonly verdicts = new Map<string, AddressVerdict>();

  constructor(opts: NetGuardOptions = {}) {
    this.allowlist = parseCidrList(opts.allowlist ?? []);
    this.resolver = opts.resolver;
  }

  /** Whether an address may be reached, and why. Throws if `ip` is not an IP address. */
  verdict(ip: string): AddressVerdict {
    // A pure function of the address and the fixed allowlist, asked twice per connection (URL check, then
    // connector) and again for every check of the same host: worth remembering.
    const known = this.verdicts.get(ip);
    if (known) return known;
    const classification = classifyAddress(ip);
    const allowlisted = isAllowlisted(ip, this.allowlist);
    const verdict: AddressVerdict = { allowed: allowlisted || classification.kind === 'public', allowlisted, classification };
    if (this.verdicts.size >= VERDICT_CACHE_SIZE) this.verdicts.clear();
    this.verdicts.set(ip, verdict);
    return verdict;
  }

  /**
   * Returns the address to connect to, or throws BlockedTargetError naming the range. `name` is the host
   * name the address came from, so the refusal can say so.
   */
  checkAddress(ip: string, name?: string): ResolvedAddress {
    const bare = stripBrackets(ip);
    const v = this.verdict(bare);
    if (!v.allowed) {
      // A literal address is the caller's own; what a name resolved to is ours, and saying it would let
      // anyone map our network through DNS names they control: name the range for literals only.
      const viaName = name !== undefined && stripBrackets(name) !== bare;
      throw new BlockedTargetError(
        viaName
          ? `Blocked: private address. ${name} does not resolve to a public address; this service does not connect to non-public addresses.`
          : `Blocked target: ${describeAddressClass(v.classification)}; this service does not connect to non-public addresses.`,
        name ?? bare,
        v.classification,
      );
    }
    return toResolved(bare);
  }

  /**
   * Checks what can be checked without DNS: the scheme (http/https only) and a literal IP host, in any
   * numeric form (WHATWG URL parsing has already turned http://2130706433/ and http://0x7f.1/ into
   * 127.0.0.1). Returns the parsed URL. Names still need resolve() before connecting.
   */
  checkUrl(url: string | URL): URL {
    let parsed: URL;
    try {
      parsed = typeof url === 'string' ? new URL(url) : url;
    } catch {
      throw new ToolError(`"${String(url)}" is not a valid URL`, 'input');
    }
    if (!ALLOWED_PROTOCOLS.has(parsed.protocol)) {
      throw new BlockedTargetError(`Blocked target: only http and https URLs are allowed, not ${parsed.protocol}`, parsed.href);
    }
    const host = stripBrackets(parsed.hostname);
    if (host === '') throw new ToolError(`"${parsed.href}" has no host`, 'input');
    if (isIpLiteral(host)) this.checkAddress(host);
    return parsed;
  }

  /** The literal address of a host if it is an IP (checked), or undefined for a name. */
  checkLiteralHost(host: string): ResolvedAddress | undefined {
    const bare = stripBrackets(host);
    return isIpLiteral(bare) ? this.checkAddress(bare) : undefined;
  }

  /**
   * Resolves a host to every address it has and checks them all: one blocked address refuses the whole
   * name (a name answering both a public and a private address is how DNS rebinding gets in). Order: as
   * the system gives them, or IPv4 before IPv6 with DNS_SERVERS.
   */
  async resolveAll(host: string, opts: { signal?: AbortLike | undefined } = {}): Promise<ResolvedAddress[]> {
    const literal = this.checkLiteralHost(host);
    if (literal) return [literal];
    const name = normaliseName(host);
    const addresses = await abortable(this.lookup(name), opts.signal);
    for (const a of addresses) this.checkAddress(a.address, name);
    return addresses;
  }

  /** resolveAll, then the one address to pin the connection to. */
  async resolve(host: string, opts: { signal?: AbortLike | undefined } = {}): Promise<ResolvedAddress> {
    const all = await this.resolveAll(host, opts);
    return all[0]!;
  }

  private async lookup(name: string): Promise<ResolvedAddress[]> {
    if (this.resolver) return this.lookupWithResolver(this.resolver, name);
    try {
      const found = await systemLookup(name, { all: true, verbatim: true });
      const addresses = dedupe(found.map((a) => toResolved(a.address)));
      if (addresses.length === 0) throw new DnsResolutionError(name, 'ENODATA');
      return addresses;
    } catch (err) {
      if (err instanceof DnsResolutionError) throw err;
      throw new DnsResolutionError(name, errorCode(err) ?? 'ENOTFOUND');
    }
  }

  private async lookupWithResolver(resolver: AddressResolver, name: string): Promise<ResolvedAddress[]> {
    const [a, aaaa] = await Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]);
    const addresses = dedupe([...(a.status === 'fulfilled' ? a.value : []), ...(aaaa.status === 'fulfilled' ? aaaa.value : [])].map(toResolved));
    if (addresses.length > 0) return addresses;
    const codes = [a, aaaa].filter((r) => r.status === 'rejected').map((r) => errorCode(r.reason) ?? 'ENOTFOUND');
    // NXDOMAIN from either query is definitive; two "no data" answers mean the name has no addresses.
    const code = codes.includes('ENOTFOUND') ? 'ENOTFOUND' : (codes.find((c) => c !== 'ENODATA') ?? 'ENODATA');
    throw new DnsResolutionError(name, code);
  }
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function normaliseName(host: string): string {
  return host.trim().toLowerCase().replace(/\.$/, '');
}

function toResolved(ip: string): ResolvedAddress {
  const parsed = parseIp(ip);
  // Keep the zone of a link-local address (only reachable when allowlisted) so the socket can use it.
  const address = isIP(ip) ? ip : parsed.toString();
  return { address, family: parsed.kind() === 'ipv4' ? 4 : 6 };
}

function dedupe(list: ResolvedAddress[]): ResolvedAddress[] {
  const seen = new Set<string>();
  return list.filter((a) => !seen.has(a.address) && (seen.add(a.address), true));
}

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The guard for this configuration: NETWORK_ALLOWLIST, and DNS_SERVERS when set (else the system resolver). */
export const netGuardService = defineService({
  name: 'net-guard',
  async create({ config, use }) {
    const resolver = config.net.dnsServers && config.net.dnsServers.length > 0 ? await use(resolverService) : undefined;
    return new NetGuard({ allowlist: config.net.allowlist, resolver });
  },
});
