// Per-domain findings of email.verify, kept for a TTL so a batch of addresses at one domain costs one
// MX lookup and one catch-all test: the mail route, the guard-approved addresses of its MX hosts, and
// whether the domain's servers accept any address. Bounded (least recently used out first); a TTL of 0
// turns it off. Failures (DNS errors, refused hosts) are never stored.
import { defineService } from '../registry/services.js';
import { abortable } from '../net/abortable.js';
import type { MailRoute } from './mail-route.js';

interface Timed<T> {
  value: T;
  expires: number;
}

interface Entry {
  route?: Timed<MailRoute>;
  catchAll?: Timed<boolean>;
  /** For MX host names: their addresses, already approved by the network guard. */
  addresses?: Timed<HostAddress[]>;
}

export interface HostAddress {
  address: string;
  family: 4 | 6;
}

export interface DomainCacheOptions {
  ttlMs: number;
  maxDomains?: number;
  now?: () => number;
}

export interface DomainCacheStats {
  size: number;
  routeHits: number;
  routeMisses: number;
  catchAllHits: number;
}

export const DEFAULT_MAX_DOMAINS = 10_000;

export class EmailDomainCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<unknown>>();
  private readonly ttlMs: number;
  private readonly maxDomains: number;
  private readonly now: () => number;
  private readonly counters = { routeHits: 0, routeMisses: 0, catchAllHits: 0 };

  constructor(opts: DomainCacheOptions) {
    this.ttlMs = Math.max(0, opts.ttlMs);
    this.maxDomains = Math.max(1, opts.maxDomains ?? DEFAULT_MAX_DOMAINS);
    this.now = opts.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /**
   * The domain's mail route from the cache, or from `lookup` (run once for concurrent callers of the same
   * domain, so it must not depend on one caller's signal: each caller stops waiting on its own `signal`).
   * A dns_error result is handed back but not stored.
   */
  route(domain: string, lookup: () => Promise<MailRoute>, signal?: AbortSignal): Promise<MailRoute> {
    return this.shared(domain, 'route', lookup, (route) => route.kind !== 'dns_error', signal);
  }

  /** An MX host's guard-approved addresses, cached like routes; a failed resolution is not stored. */
  hostAddresses(host: string, lookup: () => Promise<HostAddress[]>, signal?: AbortSignal): Promise<HostAddress[]> {
    // A space cannot occur in a domain name, so host entries never collide with domain entries.
    return this.shared(`host ${host}`, 'addresses', lookup, () => true, signal);
  }

  private shared<T>(
    key: string,
    field: 'route' | 'addresses',
    lookup: () => Promise<T>,
    storable: (value: T) => boolean,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    if (!this.enabled) {
      this.counters.routeMisses += field === 'route' ? 1 : 0;
      return abortable(lookup(), signal);
    }
    const cached = this.fresh(this.touch(key)?.[field] as Timed<T> | undefined);
    const running = this.inflight.get(`${field} ${key}`) as Promise<T> | undefined;
    if (cached !== undefined || running) {
      if (field === 'route') this.counters.routeHits++;
      return cached !== undefined ? Promise.resolve(cached) : abortable(running!, signal);
    }
    if (field === 'route') this.counters.routeMisses++;
    const p = lookup().then((value) => {
      if (storable(value)) this.update(key, { [field]: { value, expires: this.now() + this.ttlMs } });
      return value;
    });
    const flightKey = `${field} ${key}`;
    this.inflight.set(flightKey, p);
    const forget = () => this.inflight.delete(flightKey);
    p.then(forget, forget);
    return abortable(p, signal);
  }

  /** Whether the domain accepts any address (true), rejects unknown ones (false), or is not known yet. */
  catchAll(domain: string): boolean | undefined {
    if (!this.enabled) return undefined;
    const value = this.fresh(this.touch(domain)?.catchAll);
    if (value !== undefined) this.counters.catchAllHits++;
    return value;
  }

  setCatchAll(domain: string, value: boolean): void {
    if (this.enabled) this.update(domain, { catchAll: { value, expires: this.now() + this.ttlMs } });
  }

  stats(): DomainCacheStats {
    return { size: this.entries.size, ...this.counters };
  }

  clear(): void {
    this.entries.clear();
  }

  private fresh<T>(timed: Timed<T> | undefined): T | undefined {
    return timed && timed.expires > this.now() ? timed.value : undefined;
  }

  /** Reads an entry and marks it most recently used. */
  private touch(domain: string): Entry | undefined {
    const entry = this.entries.get(domain);
    if (entry) {
      this.entries.delete(domain);
      this.entries.set(domain, entry);
    }
    return entry;
  }

  private update(domain: string, patch: Entry): void {
    const entry = { ...this.entries.get(domain), ...patch };
    this.entries.delete(domain);
    this.entries.set(domain, entry);
    while (this.entries.size > this.maxDomains) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}

/** One cache per process, sized and timed by EMAIL_CACHE_TTL_S. */
export const emailDomainCacheService = defineService({
  name: 'email-domain-cache',
  create: ({ config }) => new EmailDomainCache({ ttlMs: config.net.emailCacheTtlMs }),
  dispose: (cache) => cache.clear(),
});
