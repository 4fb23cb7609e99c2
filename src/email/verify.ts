// email.verify from start to end: syntax, lists, mail route (cached per domain), then, for domains where
// it can tell something, the SMTP probe; and the status, detail and score that follow from them.
import { ToolError } from '../errors.js';
import type { Logger } from '../logger.js';
import { matchAcceptAllProvider } from './accept-all-providers.js';
import type { EmailDomainCache } from './domain-cache.js';
import { isDisposableDomain, isFreeEmailDomain, isRoleBasedLocalPart } from './lists.js';
import { lookupMailRoute, type MailRouteResolver } from './mail-route.js';
import type { EmailVerifyResult } from './result.js';
import type { SmtpSessionPool } from './smtp-session-pool.js';
import { SmtpProber, type ProbeGuard, type ProbeResult, type ProbeSettings } from './smtp-probe.js';
import { replyText } from './smtp-reply.js';
import { qualityScore, statusOf, type StatusDetail } from './status.js';
import { parseAddress } from './syntax.js';
import { suggestDomain } from './typo.js';

export interface VerifyDeps {
  resolver: MailRouteResolver;
  guard: ProbeGuard;
  cache: EmailDomainCache;
  settings: ProbeSettings;
  signal?: AbortSignal | undefined;
  log?: Logger | undefined;
  /** Shared SMTP sessions per mail server; without it each probe opens its own. */
  pool?: SmtpSessionPool | undefined;
}

type Facts = Omit<EmailVerifyResult, 'status' | 'status_detail' | 'quality_score' | 'deliverable' | 'reason'>;

function finish(facts: Facts, detail: StatusDetail, reason: string, deliverable = false): EmailVerifyResult {
  return {
    email: facts.email,
    deliverable,
    status: statusOf(detail),
    status_detail: detail,
    quality_score: qualityScore({ status_detail: detail, ...facts }),
    is_format_valid: facts.is_format_valid,
    is_smtp_valid: facts.is_smtp_valid,
    is_mx_valid: facts.is_mx_valid,
    mx_records: facts.mx_records,
    is_disposable: facts.is_disposable,
    is_free_email: facts.is_free_email,
    is_role_based: facts.is_role_based,
    is_catchall: facts.is_catchall,
    suggestion: facts.suggestion,
    mail_route: facts.mail_route,
    smtp: facts.smtp,
    reason,
  };
}

// c-ares codes that mean no DNS server answered us (as opposed to an answer such as SERVFAIL or REFUSED).
const RESOLVER_DOWN = new Set(['ECONNREFUSED', 'ETIMEOUT']);

const ROUTE_FAILURES: Record<'domain_not_found' | 'none' | 'null_mx', { detail: StatusDetail; reason: (d: string) => string }> = {
  domain_not_found: { detail: 'domain_not_found', reason: (d) => `The domain ${d} does not exist (NXDOMAIN).` },
  none: { detail: 'no_mx', reason: (d) => `The domain ${d} has no MX records and no A/AAAA address to deliver to.` },
  null_mx: { detail: 'null_mx', reason: (d) => `The domain ${d} publishes a null MX (RFC 7505): it accepts no mail.` },
};

export async function verifyEmail(deps: VerifyDeps, input: string): Promise<EmailVerifyResult> {
  const parsed = parseAddress(input);
  if (!parsed.ok) {
    const facts: Facts = {
      email: input.trim(),
      is_format_valid: false,
      is_smtp_valid: false,
      is_mx_valid: false,
      mx_records: [],
      is_disposable: false,
      is_free_email: false,
      is_role_based: false,
      is_catchall: false,
      suggestion: null,
      mail_route: null,
      smtp: null,
    };
    return finish(facts, 'invalid_format', `Invalid address: ${parsed.reason}.`);
  }

  const a = parsed.address;
  const domain = a.domainAscii;
  const suggested = suggestDomain(domain);
  const facts: Facts = {
    email: a.normalized,
    is_format_valid: true,
    is_smtp_valid: false,
    is_mx_valid: false,
    mx_records: [],
    is_disposable: isDisposableDomain(domain),
    is_free_email: isFreeEmailDomain(domain),
    is_role_based: isRoleBasedLocalPart(a.local),
    is_catchall: false,
    suggestion: suggested ? `${a.local}@${suggested}` : null,
    mail_route: null,
    smtp: null,
  };

  // The lookup may be shared with concurrent verifications, so only the waiting honours our signal.
  const route = await deps.cache.route(domain, () => lookupMailRoute(deps.resolver, domain), deps.signal);
  if (route.kind === 'dns_error') {
    // Our resolver not answering at all is our outage, not a fact about the domain: retry and refund.
    if (RESOLVER_DOWN.has(route.code)) throw new ToolError(`The DNS resolver did not answer (${route.code}); please retry.`, 'transient');
    return finish(facts, 'dns_error', `The DNS lookup of ${domain} failed (${route.code}); nothing can be concluded.`);
  }
  if (route.kind !== 'mx' && route.kind !== 'implicit') {
    facts.mail_route = route.kind === 'domain_not_found' ? 'none' : route.kind;
    const failure = ROUTE_FAILURES[route.kind];
    return finish(facts, failure.detail, failure.reason(domain));
  }
  facts.mail_route = route.kind;
  if (route.kind === 'mx') {
    facts.is_mx_valid = true;
    facts.mx_records = route.hosts.map((h) => h.name);
  }

  if (facts.is_disposable) return finish(facts, 'disposable', `${domain} is a disposable-mailbox service; its servers were not probed.`);
  const acceptAll = matchAcceptAllProvider(domain, facts.mx_records);
  if (acceptAll) {
    const via = acceptAll.by === 'domain' ? domain : `its MX host ${acceptAll.value}`;
    return finish(
      facts,
      'accepts_all_provider',
      `Mail for ${domain} is handled by a provider that accepts every address at SMTP time (${via}), so a probe cannot tell; it was skipped.`,
    );
  }

  const knownCatchAll = deps.cache.catchAll(domain);
  if (knownCatchAll === true) {
    facts.is_smtp_valid = true;
    facts.is_catchall = true;
    return finish(facts, 'catch_all', `${domain} was recently found to accept any address (catch-all); acceptance proves nothing.`);
  }

  const prober = new SmtpProber(deps.settings, {
    guard: deps.guard,
    resolveHost: (name) => deps.cache.hostAddresses(name, () => deps.guard.resolveAll(name), deps.signal),
    signal: deps.signal,
    log: deps.log,
    pool: deps.pool,
  });
  const probe = await prober.probe({
    hosts: route.hosts,
    domain,
    recipient: a.smtpAddress,
    needsSmtpUtf8: a.needsSmtpUtf8,
    testCatchAll: knownCatchAll === undefined,
  });
  deps.log?.debug('smtp probe', { domain, verdict: probe.verdict, host: probe.host, connections: probe.connections });
  facts.smtp = smtpFacts(probe);
  rememberCatchAll(deps.cache, domain, probe);
  return fromProbe(facts, probe, knownCatchAll === false);
}

function smtpFacts(p: ProbeResult): Facts['smtp'] {
  if (!p.host) return null;
  return {
    host: p.host,
    code: p.reply?.code ?? null,
    enhanced_code: p.reply?.enhanced ?? null,
    message: p.reply ? replyText(p.reply) : null,
    tls: p.tls,
  };
}

function rememberCatchAll(cache: EmailDomainCache, domain: string, p: ProbeResult): void {
  if (p.verdict === 'accepted' && p.catchAll !== null) cache.setCatchAll(domain, p.catchAll);
  // A server that refuses one specific mailbox is not a catch-all.
  else if (p.verdict === 'mailbox_not_found') cache.setCatchAll(domain, false);
}

function fromProbe(facts: Facts, p: ProbeResult, knownNotCatchAll: boolean): EmailVerifyResult {
  if (p.verdict !== 'accepted') return finish(facts, p.verdict, p.note);
  facts.is_smtp_valid = true;
  if (p.catchAll === true) {
    facts.is_catchall = true;
    return finish(facts, 'catch_all', `${p.note} A random address at the same domain was accepted too: the domain accepts any address.`);
  }
  const how = knownNotCatchAll
    ? 'The domain was recently found to refuse unknown addresses.'
    : p.catchAll === false
      ? 'A random address at the same domain was refused.'
      : 'The catch-all test got no clear answer.';
  if (facts.is_role_based) return finish(facts, 'role_based', `${p.note} ${how} The address is a role mailbox.`, true);
  return finish(facts, 'accepted', `${p.note} ${how}`, true);
}
