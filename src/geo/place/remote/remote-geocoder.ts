// The transport for an optional remote geocoder (GEOCODER_KIND + GEOCODER_URL): a per-host rate limit
// (public Nominatim allows one request a second), a cache of answers, an identifying User-Agent, and a
// timeout. Requests go through the network guard's HTTP client (see geocoder-service.ts); the fetch
// function is injected so the adapters can be exercised against any local server.
import { setTimeout as sleep } from 'node:timers/promises';
import type { PlaceResult } from '../place-result.js';
import type { RemoteAdapter } from './remote-adapter.js';

export interface JsonResponse {
  status: number;
  /** Parsed JSON for a 2xx answer; undefined otherwise. */
  body: unknown;
}

export type JsonFetch = (url: URL, init: { headers: Record<string, string>; signal: AbortSignal }) => Promise<JsonResponse>;

/** A remote geocoder could not answer (network, HTTP status, malformed body, rate limit). */
export class RemoteGeocoderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RemoteGeocoderError';
  }
}

/** Spaces requests to one host at least `minIntervalMs` apart, in arrival order. */
export class HostRateLimiter {
  private readonly nextSlot = new Map<string, number>();

  constructor(
    private readonly minIntervalMs: number,
    /** Longer than this in the queue and the caller is better served by the embedded data. */
    private readonly maxWaitMs: number,
  ) {}

  async acquire(host: string, signal: AbortSignal): Promise<void> {
    const now = Date.now();
    const slot = Math.max(now, this.nextSlot.get(host) ?? 0);
    const wait = slot - now;
    if (wait > this.maxWaitMs) throw new RemoteGeocoderError(`rate limit: the next request to ${host} may only go in ${Math.ceil(wait / 1000)} s`);
    this.nextSlot.set(host, slot + this.minIntervalMs);
    if (wait > 0) await sleep(wait, undefined, { signal });
  }
}

/** A small LRU with a time to live. */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs: number,
  ) {}

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    if (e.expires < Date.now()) return undefined;
    this.entries.set(key, e);
    return e.value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expires: Date.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  get size(): number {
    return this.entries.size;
  }
}

export interface RemoteGeocoderOptions {
  adapter: RemoteAdapter;
  baseUrl: string;
  fetchJson: JsonFetch;
  userAgent: string;
  limiter: HostRateLimiter;
  cache?: TtlCache<PlaceResult | null>;
  timeoutMs?: number;
}

export class RemoteGeocoder {
  readonly kind: RemoteAdapter['kind'];
  private readonly base: URL;
  private readonly cache: TtlCache<PlaceResult | null>;
  /** Requests actually sent (cache hits excluded); for tests and metrics. */
  requestsSent = 0;

  constructor(private readonly o: RemoteGeocoderOptions) {
    this.kind = o.adapter.kind;
    this.base = new URL(o.baseUrl.endsWith('/') ? o.baseUrl : `${o.baseUrl}/`);
    this.cache = o.cache ?? new TtlCache(5_000, 24 * 3_600_000);
  }

  /** The provider's best match, or null when it found none. Throws RemoteGeocoderError when it cannot answer. */
  async search(query: string, signal: AbortSignal): Promise<PlaceResult | null> {
    const key = query.trim().replace(/\s+/g, ' ').toLowerCase();
    const cached = this.cache.get(key);
    if (cached !== undefined) return structuredClone(cached);

    const url = this.o.adapter.searchUrl(this.base, query.trim());
    await this.o.limiter.acquire(url.host, signal);
    const timeout = AbortSignal.timeout(this.o.timeoutMs ?? 8_000);
    let response: JsonResponse;
    try {
      this.requestsSent++;
      response = await this.o.fetchJson(url, {
        headers: { accept: 'application/json', 'user-agent': this.o.userAgent },
        signal: AbortSignal.any([signal, timeout]),
      });
    } catch (err) {
      if (signal.aborted) throw err;
      const reason = timeout.aborted ? `no answer within ${this.o.timeoutMs ?? 8_000} ms` : (err as Error).message;
      throw new RemoteGeocoderError(`${this.kind} request failed: ${reason}`);
    }
    if (response.status < 200 || response.status >= 300) throw new RemoteGeocoderError(`${this.kind} answered HTTP ${response.status}`);
    let result: PlaceResult | null;
    try {
      result = this.o.adapter.read(response.body, query);
    } catch (err) {
      throw new RemoteGeocoderError(`${this.kind} answered in an unexpected format: ${(err as Error).message}`);
    }
    this.cache.set(key, result);
    return result === null ? null : structuredClone(result);
  }
}
