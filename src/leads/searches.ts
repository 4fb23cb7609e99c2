// Searches are accepted at once (202) and run in-process right after; the client polls the record.
// Pending searches left behind by a crash are run again at start-up (resume()).
import { z } from 'zod';
import type { Logger } from '../logger.js';
import { resolveCategory } from './categories.js';
import { requireZip, zipCentroid } from './geo.js';
import { randomId } from './ids.js';
import type { Principal } from './auth.js';
import { DEFAULT_LIMIT, DEFAULT_RADIUS_MILES, MAX_LIMIT, MAX_RADIUS_MILES, searchDirectory } from './search.js';
import type { LeadStore } from './store.js';
import type { SearchRecord } from './types.js';
import type { Category } from './categories.js';

export const searchBody = z.object({
  service: z.string().trim().min(1).max(100),
  zip: z.string().trim(),
  radius_miles: z.number().positive().max(MAX_RADIUS_MILES).default(DEFAULT_RADIUS_MILES),
  limit: z.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
});
export type SearchBody = z.output<typeof searchBody>;

export interface SearchDeps {
  store: LeadStore;
  log: Logger;
  now: () => number;
  consumeQuota: (principal: Principal, category: Category) => Promise<void>;
}

export class LeadSearches {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly d: SearchDeps) {}

  async create(principal: Principal, body: SearchBody): Promise<SearchRecord> {
    const category = resolveCategory(body.service);
    const centroid = requireZip(body.zip);
    await this.d.consumeQuota(principal, category);
    const record: SearchRecord = {
      id: randomId('srch'),
      accountId: principal.accountId,
      service: body.service,
      category,
      zip: centroid.zip,
      radiusMiles: body.radius_miles,
      limit: body.limit,
      status: 'pending',
      results: null,
      meta: null,
      error: null,
      createdAt: this.d.now(),
      completedAt: null,
    };
    await this.d.store.createSearch(record);
    this.runLater(record);
    return record;
  }

  /** Runs searches a previous process accepted but never finished. */
  async resume(): Promise<void> {
    for (const id of await this.d.store.pendingSearchIds()) {
      const s = await this.d.store.getSearch(id);
      if (s) this.runLater(s);
    }
  }

  /** Resolves when every running search has been written. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private runLater(s: SearchRecord): void {
    const p = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.run(s))
      .catch((err: unknown) => this.d.log.error('search failed', { search: s.id, err }))
      .finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
  }

  private async run(s: SearchRecord): Promise<void> {
    const centroid = zipCentroid(s.zip);
    if (!centroid) {
      await this.d.store.failSearch(s.id, `ZIP code ${s.zip} has no known location.`, this.d.now());
      return;
    }
    try {
      const outcome = await searchDirectory(this.d.store, {
        category: s.category,
        lat: centroid.lat,
        lng: centroid.lng,
        radiusMiles: s.radiusMiles,
        limit: s.limit,
      });
      const dataset = (await this.d.store.hasDemoPros()) ? 'demo' : 'imported';
      await this.d.store.completeSearch(
        s.id,
        outcome.results,
        { total: outcome.total, dataset, service: s.category, zip: s.zip, radius_miles: s.radiusMiles, limit: s.limit },
        this.d.now(),
      );
    } catch (err) {
      this.d.log.error('search failed', { search: s.id, err });
      await this.d.store.failSearch(s.id, 'The search could not be completed; submit it again.', this.d.now());
    }
  }
}
