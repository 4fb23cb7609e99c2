// geo.locate's shared services. The gazetteer is loaded once, lazily, on the first embedded lookup (so
// other tools, and deployments that use a remote geocoder, do not pay for it); the geocoder service adds
// the optional remote provider and falls back to the gazetteer when it cannot answer.
import { performance } from 'node:perf_hooks';
import { ToolError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { httpClientService } from '../../net/http-client.js';
import { defineService } from '../../registry/services.js';
import { VERSION } from '../../version.js';
import { geocodeEmbedded } from './embedded-geocoder.js';
import { Gazetteer } from './gazetteer.js';
import type { PlaceResult } from './place-result.js';
import { guardedJsonFetch } from './remote/guarded-json-fetch.js';
import { nominatimAdapter } from './remote/nominatim.js';
import { peliasAdapter } from './remote/pelias.js';
import { photonAdapter } from './remote/photon.js';
import type { RemoteAdapter } from './remote/remote-adapter.js';
import { HostRateLimiter, RemoteGeocoder } from './remote/remote-geocoder.js';

export const gazetteerService = defineService({
  name: 'gazetteer',
  async create({ log }) {
    const started = performance.now();
    const gazetteer = await Gazetteer.load();
    log.info('gazetteer loaded', { ms: Math.round(performance.now() - started), ...gazetteer.stats, rssMb: Math.round(process.memoryUsage().rss / 1e6) });
    return gazetteer;
  },
});

const ADAPTERS: Record<RemoteAdapter['kind'], RemoteAdapter> = { nominatim: nominatimAdapter, pelias: peliasAdapter, photon: photonAdapter };

/** The longest a request waits for its turn at a rate-limited host before the embedded data answers instead. */
const MAX_QUEUE_WAIT_MS = 10_000;

export class PlaceGeocoder {
  constructor(
    private readonly gazetteer: () => Promise<Gazetteer>,
    readonly remote: RemoteGeocoder | null,
    private readonly log: Logger,
  ) {}

  /** The best match; throws ToolError (permanent, so not charged) when nothing matches. */
  async locate(address: string, signal: AbortSignal): Promise<PlaceResult> {
    let fallbackReason: string | null = null;
    if (this.remote) {
      try {
        const found = await this.remote.search(address, signal);
        if (found) return found;
        fallbackReason = `${this.remote.kind} found no match`;
      } catch (err) {
        if (signal.aborted) throw err;
        fallbackReason = (err as Error).message;
        this.log.warn('remote geocoder failed; answering from embedded data', { kind: this.remote.kind, reason: fallbackReason });
      }
    }
    signal.throwIfAborted();
    const result = geocodeEmbedded(await this.gazetteer(), address);
    if (!result) {
      throw new ToolError(`No place matches "${address}"${fallbackReason ? ` (${fallbackReason}; the embedded data has no match either)` : ''}.`, 'permanent');
    }
    if (fallbackReason) result.source.fallback_reason = fallbackReason;
    return result;
  }
}

export const placeGeocoderService = defineService({
  name: 'place-geocoder',
  async create({ config, log, use }) {
    const { geocoderKind: kind, geocoderUrl: url } = config.geo;
    let remote: RemoteGeocoder | null = null;
    if (kind && url) {
      remote = new RemoteGeocoder({
        adapter: ADAPTERS[kind],
        baseUrl: url,
        fetchJson: guardedJsonFetch(await use(httpClientService)),
        userAgent: config.geo.geocoderUserAgent ?? `agent-utility/${VERSION} (+${config.publicUrl})`,
        limiter: new HostRateLimiter(config.geo.geocoderMinIntervalMs, MAX_QUEUE_WAIT_MS),
      });
    } else if (kind || url) {
      log.warn('GEOCODER_KIND and GEOCODER_URL must both be set to use a remote geocoder; using embedded data', { kind, url });
    }
    return new PlaceGeocoder(() => use(gazetteerService), remote, log);
  },
});
