// site.crawl's coordinator. It runs as the parent task and never fetches a page itself: every page is a
// site.page child task (src/registry/child-tasks.ts), so leases, retries, fair share and refunds are the
// engine's. It decides what to fetch and when: breadth-first from the start page (and the sitemaps, when
// asked), each URL normalised and fetched once, only in scope, only where robots.txt allows, traps bounded,
// at most `max_concurrency` pages of one host in flight (one, spaced by Crawl-delay, when robots.txt sets
// one). After a crash the next attempt rebuilds its state from the children already created and goes on.
import { ToolError } from '../errors.js';
import type { HttpClient } from '../net/http-client.js';
import { childTasksService, type ChildItem, type ChildTasks, type NewChild } from '../registry/child-tasks.js';
import type { ToolContext } from '../registry/define-tool.js';
import type { PageFormat, PageInput, PageResult } from './page-fetch.js';
import { normaliseUrl, UrlSet } from './normalise-url.js';
import { RobotsCache } from './robots.js';
import { readSitemaps } from './sitemaps.js';
import { TrapGuard, type TrapKind } from './traps.js';
import { UrlScope, type ScopeOptions } from './url-scope.js';
import { crawlPagesPaid, pagePriceMicros } from './page-prices.js';

import { MAX_CRAWL_PAGES } from './input-schemas.js';
export { MAX_CRAWL_PAGES };
export const PAGE_TOOL = 'site.page';
/** Pages in flight across all hosts. */
const MAX_IN_FLIGHT = 64;
const RESUME_PAGE = 1_000;

export interface CrawlInput extends ScopeOptions {
  url: string;
  limit: number;
  max_depth: number;
  sources: 'links' | 'sitemaps' | 'both';
  formats: PageFormat[];
  render: boolean;
  max_cost?: number | undefined;
  max_concurrency: number;
  timeout_ms: number;
}

export type StopReason = 'done' | 'limit' | 'max_cost' | 'credits';

export interface CrawlResult {
  url: string;
  pages: number;
  counts: { complete: number; failed: number; cancelled: number };
  skipped: { robots: number; duplicates: number; depth: number; traps: number; out_of_scope: number };
  traps: Record<TrapKind, number>;
  stopped_by: StopReason;
  cost_usd: string;
  results_url: string;
}

interface Queued {
  url: string;
  depth: number;
}

interface HostState {
  queue: Queued[];
  inFlight: number;
  /** Not before this time (Crawl-delay); Infinity while its one request is out. */
  nextAt: number;
}

export async function crawlSite(ctx: ToolContext, http: HttpClient, input: CrawlInput): Promise<CrawlResult> {
  const children = await ctx.use(childTasksService);
  const crawl = new Crawl(ctx, http, children, input);
  try {
    return await crawl.run();
  } catch (err) {
    // Cancelled or out of time: stop the pages not started (refunded). A lost lease or a shutdown leaves
    // them to the attempt that takes over.
    const reason = (ctx.signal.reason as { reason?: string } | undefined)?.reason;
    if (reason === 'cancelled' || reason === 'timeout') await children.cancel(ctx.taskId).catch(() => 0);
    throw err;
  }
}

class Crawl {
  private readonly start: string;
  private readonly scope: UrlScope;
  private readonly seen = new UrlSet();
  private readonly traps = new TrapGuard();
  private readonly robots: RobotsCache;
  private readonly hosts = new Map<string, HostState>();
  private readonly outstanding = new Map<string, { host: string; depth: number }>();
  private readonly pagePrice: number;
  /** Pages max_cost pays for (the limit when it allows more). */
  private readonly pagesByCost: number;
  private readonly skipped = { robots: 0, duplicates: 0, depth: 0, traps: 0, out_of_scope: 0 };
  private created = 0;
  private settled = 0;
  private stoppedBy: StopReason = 'done';

  constructor(
    private readonly ctx: ToolContext,
    private readonly http: HttpClient,
    private readonly children: ChildTasks,
    private readonly input: CrawlInput,
  ) {
    const start = normaliseUrl(input.url);
    if (!start) throw new ToolError('url must be an absolute http or https URL.', 'input');
    this.start = start;
    this.scope = new UrlScope(start, input);
    this.robots = new RobotsCache(http, ctx.signal, input.timeout_ms);
    this.pagePrice = pagePriceMicros(input.render);
    this.pagesByCost = crawlPagesPaid({ ...input, limit: Infinity });
  }

  async run(): Promise<CrawlResult> {
    const resumed = await this.resume();
    if (!resumed) await this.seed();
    await this.loop();
    return this.result();
  }

  /** Rebuilds the state from children an earlier attempt created; false when there are none. */
  private async resume(): Promise<boolean> {
    const done: ChildItem[] = [];
    for (let from = 0; ; from += RESUME_PAGE) {
      const items = await this.children.items(this.ctx.taskId, from, RESUME_PAGE);
      for (const item of items) {
        const page = item.input as PageInput | null;
        if (!page) continue;
        this.created++;
        this.seen.add(page.url);
        if ((item.status === 'pending' || item.status === 'running') && item.taskId) this.track(item.taskId, page.url, page.depth);
        else {
          this.settled++;
          done.push(item);
        }
      }
      if (items.length < RESUME_PAGE) break;
    }
    if (this.created === 0) return false;
    // Their links, in crawl order, rebuild the frontier exactly as it was.
    for (const item of done) this.follow(item);
    return true;
  }

  private async seed(): Promise<void> {
    this.discover(this.start, 0);
    if (this.input.sources === 'links') return;
    const rules = await this.robots.forUrl(this.start);
    const seeds = rules.sitemaps.length > 0 ? rules.sitemaps : [`${new URL(this.start).origin}/sitemap.xml`];
    const entries = await readSitemaps(this.http, seeds, { signal: this.ctx.signal, timeoutMs: this.input.timeout_ms, maxPages: this.input.limit * 2 });
    for (const e of entries) this.discover(e.url, Math.min(1, this.input.max_depth));
  }

  /** A URL found on a page (or in a sitemap): queued once, if it may be crawled. */
  private discover(raw: string, depth: number, base?: string): void {
    const url = normaliseUrl(raw, base);
    if (!url) return;
    if (!this.scope.allows(url)) return void this.skipped.out_of_scope++;
    if (this.seen.has(url)) return void this.skipped.duplicates++;
    if (depth > this.input.max_depth) return void this.skipped.depth++;
    if (this.traps.admit(url)) return void this.skipped.traps++;
    this.seen.add(url);
    const host = new URL(url).host;
    this.hostState(host).queue.push({ url, depth });
  }

  private hostState(host: string): HostState {
    let h = this.hosts.get(host);
    if (!h) this.hosts.set(host, (h = { queue: [], inFlight: 0, nextAt: 0 }));
    return h;
  }

  private track(taskId: string, url: string, depth: number): void {
    const host = new URL(url).host;
    const h = this.hostState(host);
    h.inFlight++;
    this.outstanding.set(taskId, { host, depth });
  }

  private async loop(): Promise<void> {
    for (;;) {
      this.ctx.signal.throwIfAborted();
      const dispatched = this.stoppedBy === 'done' ? await this.dispatch() : 0;
      if (this.outstanding.size === 0 && dispatched === 0) {
        const waiting = this.nextReady();
        if (waiting === null || this.stoppedBy !== 'done') return;
        await sleep(waiting - Date.now(), this.ctx.signal);
        continue;
      }
      if (this.outstanding.size === 0) continue;
      const until = this.nextReady();
      const wait = Math.max(5, Math.min(this.ctx.config.engine.pollIntervalMs, until === null ? Infinity : until - Date.now()));
      await this.children.waitForAny([...this.outstanding.keys()], wait, this.ctx.signal);
      await this.collect();
    }
  }

  /** When the next queued page may go (Crawl-delay), or null when nothing is queued. */
  private nextReady(): number | null {
    let next: number | null = null;
    for (const h of this.hosts.values()) {
      if (h.queue.length === 0 || h.nextAt === Infinity) continue;
      next = next === null ? h.nextAt : Math.min(next, h.nextAt);
    }
    return next;
  }

  /** Creates the children that may go now: round robin over hosts, within each host's allowance. */
  private async dispatch(): Promise<number> {
    const batch: { url: string; depth: number; host: string }[] = [];
    let progressed = true;
    while (progressed) {
      progressed = false;
      for (const [host, h] of this.hosts) {
        if (this.outstanding.size + batch.length >= MAX_IN_FLIGHT) break;
        if (h.queue.length === 0 || Date.now() < h.nextAt) continue;
        const rules = await this.robots.forUrl(h.queue[0]!.url);
        const cap = rules.crawlDelayS > 0 ? 1 : this.input.max_concurrency;
        if (h.inFlight + batch.filter((b) => b.host === host).length >= cap) continue;
        if (this.created + batch.length >= this.input.limit) {
          this.stoppedBy = 'limit';
          break;
        }
        if (this.created + batch.length >= this.pagesByCost) {
          this.stoppedBy = 'max_cost';
          break;
        }
        const next = h.queue.shift()!;
        // Checked before it is asked for: a disallowed URL is never requested.
        if (!rules.allows(next.url)) {
          this.skipped.robots++;
          progressed = true;
          continue;
        }
        batch.push({ ...next, host });
        if (rules.crawlDelayS > 0) h.nextAt = Infinity;
        progressed = true;
      }
      if (this.stoppedBy !== 'done') break;
    }
    if (batch.length === 0) return 0;
    const inputs: NewChild[] = batch.map((b) => ({
      input: { url: b.url, depth: b.depth, render: this.input.render, formats: this.input.formats, timeout_ms: this.input.timeout_ms } satisfies PageInput,
      priceMicros: this.pagePrice,
    }));
    const outcome = await this.children.append(this.ctx.taskId, PAGE_TOOL, inputs);
    if (outcome.kind === 'needs_key') {
      throw new ToolError('This crawl was paid with x402 without its pages: pay the price its 402 answer states (pages included).', 'input');
    }
    if (outcome.kind !== 'created') {
      this.stoppedBy = 'credits';
      return 0;
    }
    this.created += batch.length;
    batch.forEach((b, i) => this.track(outcome.taskIds[i]!, b.url, b.depth));
    return batch.length;
  }

  /** Reads the outstanding children, and follows the links of those that settled. */
  private async collect(): Promise<void> {
    const states = await this.children.states([...this.outstanding.keys()]);
    const now = Date.now();
    for (const [taskId, o] of this.outstanding) {
      const item = states.get(taskId);
      if (item && (item.status === 'pending' || item.status === 'running')) continue;
      this.outstanding.delete(taskId);
      this.settled++;
      const h = this.hostState(o.host);
      h.inFlight--;
      const queueHead = h.queue[0]?.url ?? `http://${o.host}/`;
      const rules = await this.robots.forUrl(queueHead);
      h.nextAt = rules.crawlDelayS > 0 ? now + rules.crawlDelayS * 1000 : 0;
      if (item) this.follow(item);
    }
    this.ctx.progress(this.settled, this.created, `${this.settled} of ${this.created} pages crawled`);
  }

  private follow(item: ChildItem): void {
    if (item.status !== 'complete' || !item.result) return;
    const page = item.result as PageResult;
    // A redirect's target is the same page under another name: same depth.
    if (page.redirect) return this.discover(page.redirect, page.depth);
    for (const link of page.links) this.discover(link, page.depth + 1);
  }

  private async result(): Promise<CrawlResult> {
    const counts = { complete: 0, failed: 0, cancelled: 0 };
    let pages = 0;
    for (let from = 0; ; from += RESUME_PAGE) {
      const items = await this.children.items(this.ctx.taskId, from, RESUME_PAGE);
      for (const item of items) {
        pages++;
        if (item.status === 'complete') counts.complete++;
        else if (item.status === 'failed') counts.failed++;
        else counts.cancelled++;
      }
      if (items.length < RESUME_PAGE) break;
    }
    return {
      url: this.start,
      pages,
      counts,
      skipped: this.skipped,
      traps: this.traps.refused,
      stopped_by: this.stoppedBy,
      cost_usd: microsText(pages * this.pagePrice),
      results_url: await this.children.resultsUrl(this.ctx.taskId),
    };
  }
}

function microsText(micros: number): string {
  return (micros / 1_000_000).toFixed(6).replace(/\.?0+$/, '');
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(1, ms));
    signal.addEventListener('abort', done, { once: true });
  });
}
