// Where mail for a domain goes: its MX records in preference order, the domain itself when it has no MX
// but has an address (implicit MX, RFC 5321 §5.1), nowhere when it publishes a null MX (RFC 7505 "0 .")
// or has neither. DNS failures that say nothing about the domain (timeouts, SERVFAIL) stay distinct.
import { abortable } from '../net/abortable.js';

export interface MailHost {
  name: string;
  preference: number;
}

export type MailRoute =
  | { kind: 'mx'; hosts: MailHost[] }
  | { kind: 'implicit'; hosts: MailHost[] }
  | { kind: 'null_mx' }
  /** The domain exists but has no MX and no A/AAAA. */
  | { kind: 'none' }
  /** NXDOMAIN. */
  | { kind: 'domain_not_found' }
  /** The lookup itself failed; nothing can be concluded (never cached). */
  | { kind: 'dns_error'; code: string };

/** The part of node:dns/promises Resolver this needs. */
export interface MailRouteResolver {
  resolveMx(name: string): Promise<{ exchange: string; priority: number }[]>;
  resolve4(name: string): Promise<string[]>;
  resolve6(name: string): Promise<string[]>;
}

const NO_DATA = new Set(['ENODATA']);
const NO_DOMAIN = new Set(['ENOTFOUND']);

function codeOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'EUNKNOWN';
}

/** Host names as written in DNS: lower case, no trailing dot. "" is the root (a null MX target). */
function hostName(exchange: string): string {
  return exchange.trim().toLowerCase().replace(/\.$/, '');
}

export async function lookupMailRoute(resolver: MailRouteResolver, domain: string, signal?: AbortSignal): Promise<MailRoute> {
  let records: { exchange: string; priority: number }[];
  try {
    records = await abortable(resolver.resolveMx(domain), signal);
  } catch (err) {
    if (signal?.aborted) throw err;
    const code = codeOf(err);
    if (NO_DOMAIN.has(code)) return { kind: 'domain_not_found' };
    if (!NO_DATA.has(code)) return { kind: 'dns_error', code };
    records = [];
  }

  if (records.length > 0) {
    const real = records.filter((r) => hostName(r.exchange) !== '');
    // RFC 7505: a null MX is the only MX of its domain. If a broken zone mixes it with real ones, the real ones win.
    if (real.length === 0) return { kind: 'null_mx' };
    const hosts = real
      .map((r) => ({ name: hostName(r.exchange), preference: r.priority }))
      .sort((a, b) => a.preference - b.preference || a.name.localeCompare(b.name));
    return { kind: 'mx', hosts: hosts.filter((h, i) => hosts.findIndex((o) => o.name === h.name) === i) };
  }

  // No MX: RFC 5321 §5.1 implicit MX, the domain's own A/AAAA with preference 0.
  const [a, aaaa] = await Promise.allSettled([abortable(resolver.resolve4(domain), signal), abortable(resolver.resolve6(domain), signal)]);
  if (signal?.aborted) throw signal.reason;
  if ((a.status === 'fulfilled' && a.value.length > 0) || (aaaa.status === 'fulfilled' && aaaa.value.length > 0)) {
    return { kind: 'implicit', hosts: [{ name: domain, preference: 0 }] };
  }
  const codes = [a, aaaa].flatMap((r) => (r.status === 'rejected' ? [codeOf(r.reason)] : []));
  const failure = codes.find((c) => !NO_DATA.has(c) && !NO_DOMAIN.has(c));
  if (failure) return { kind: 'dns_error', code: failure };
  return codes.some((c) => NO_DOMAIN.has(c)) ? { kind: 'domain_not_found' } : { kind: 'none' };
}
