// Domain and local-part lists from maintained packages (licences in docs/email.md):
// - disposable domains: mailchecker (MIT), matched on the domain and each parent domain;
// - free mail providers: email-providers (ISC), exact domain;
// - role-based local parts: role-based-email-addresses (MIT).
// Loaded once, lazily, through createRequire because two of them are CommonJS data modules.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

// RFC 2606 names appear in the provider list only because they are popular in sample data.
const RESERVED_EXAMPLE_DOMAINS = new Set(['example.com', 'example.net', 'example.org']);

function stringArray(value: unknown, what: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new Error(`${what} is not a list of strings`);
  return value as string[];
}

let disposable: ReadonlySet<string> | undefined;
let free: ReadonlySet<string> | undefined;
let roles: ReadonlySet<string> | undefined;

function disposableDomains(): ReadonlySet<string> {
  if (!disposable) {
    const mailchecker = require('mailchecker') as { blacklist(): Set<string> };
    disposable = mailchecker.blacklist();
  }
  return disposable;
}

function freeDomains(): ReadonlySet<string> {
  if (!free) {
    const all = stringArray(require('email-providers/all.json'), 'email-providers/all.json');
    free = new Set(all.map((d) => d.toLowerCase()).filter((d) => !RESERVED_EXAMPLE_DOMAINS.has(d)));
  }
  return free;
}

function roleLocalParts(): ReadonlySet<string> {
  if (!roles) roles = new Set(stringArray(require('role-based-email-addresses'), 'role-based-email-addresses').map((r) => r.toLowerCase()));
  return roles;
}

/** The domain itself and every parent, most specific first: a.b.example.com, b.example.com, example.com. */
export function domainAndParents(domain: string): string[] {
  const labels = domain.toLowerCase().split('.');
  const out: string[] = [];
  for (let i = 0; i < labels.length - 1; i++) out.push(labels.slice(i).join('.'));
  return out;
}

/** A throwaway-mailbox service (domain or a parent listed by mailchecker). `domain` is the ASCII form. */
export function isDisposableDomain(domain: string): boolean {
  const set = disposableDomains();
  return domainAndParents(domain).some((d) => set.has(d));
}

/** A free consumer mail provider such as gmail.com (exact domain, email-providers). */
export function isFreeEmailDomain(domain: string): boolean {
  return freeDomains().has(domain.toLowerCase());
}

/**
 * A mailbox for a function rather than a person (info@, support@, postmaster@). A sub-address tag is
 * ignored: sales+eu@ is role-based like sales@.
 */
export function isRoleBasedLocalPart(local: string): boolean {
  const base = local.toLowerCase().split('+')[0] ?? '';
  return roleLocalParts().has(base);
}

/** Sizes of the loaded lists, for docs and sanity checks. */
export function listSizes(): { disposable: number; free: number; role: number } {
  return { disposable: disposableDomains().size, free: freeDomains().size, role: roleLocalParts().size };
}
