// robots.txt, read with robots-parser: which paths the crawler may fetch (its own group, else "*"), how
// long to wait between requests (Crawl-delay) and where the sitemaps are. A missing robots.txt (4xx)
// allows everything; one that cannot be read (5xx, network failure) disallows everything for that host,
// as RFC 9309 §2.3.1.3 asks.
import robotsParserModule from 'robots-parser';
import type { HttpClient } from '../net/http-client.js';
import { blockedCause, CRAWLER_TOKEN, fetchFollowing } from './fetch-text.js';

interface ParsedRobots {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
}
// A CommonJS module whose export is the function itself; its typings declare it as an ES default export.
const robotsParser = robotsParserModule as unknown as (url: string, text: string) => ParsedRobots;

const MAX_ROBOTS_BYTES = 512 * 1024;
/** Longest Crawl-delay honoured as written; longer ones are capped (a crawl of hours would not finish). */
export const MAX_CRAWL_DELAY_S = 30;

export interface RobotsRules {
  /** The robots.txt URL these rules came from. */
  url: string;
  allows(url: string): boolean;
  /** Seconds between requests to this host, 0 when none is set. */
  crawlDelayS: number;
  sitemaps: string[];
  /** Paths of its Allow: lines, as written (site.map lists the literal ones). */
  literalAllows: string[];
}

export function parseRobots(robotsUrl: string, text: string): RobotsRules {
  const robot = robotsParser(robotsUrl, text);
  const delay = Number(robot.getCrawlDelay(CRAWLER_TOKEN) ?? 0);
  return {
    url: robotsUrl,
    // A URL of another host is not this file's to judge (robots-parser answers undefined).
    allows: (url) => robot.isAllowed(url, CRAWLER_TOKEN) !== false,
    crawlDelayS: Number.isFinite(delay) && delay > 0 ? Math.min(delay, MAX_CRAWL_DELAY_S) : 0,
    sitemaps: robot.getSitemaps(),
    literalAllows: [...text.matchAll(/^\s*allow\s*:\s*(\S+)/gim)].map((m) => m[1]!),
  };
}

const ALLOW_ALL = (url: string): RobotsRules => ({ url, allows: () => true, crawlDelayS: 0, sitemaps: [], literalAllows: [] });
const DENY_ALL = (url: string): RobotsRules => ({ url, allows: () => false, crawlDelayS: 0, sitemaps: [], literalAllows: [] });

export async function fetchRobots(http: HttpClient, origin: string, signal: AbortSignal | undefined, timeoutMs: number): Promise<RobotsRules> {
  const url = `${origin}/robots.txt`;
  try {
    const got = await fetchFollowing(http, url, { signal, timeoutMs, maxBytes: MAX_ROBOTS_BYTES, maxHops: 5 });
    if (got.status >= 200 && got.status < 300) return parseRobots(url, got.body);
    if (got.status >= 400 && got.status < 500) return ALLOW_ALL(url);
    return DENY_ALL(url);
  } catch (err) {
    if (signal?.aborted) throw err;
    // A host the guard refuses is the caller's answer, not a robots.txt to guess at.
    const blocked = blockedCause(err);
    if (blocked) throw blocked;
    return DENY_ALL(url);
  }
}

/** robots.txt of every host met, fetched once each. */
export class RobotsCache {
  private readonly byOrigin = new Map<string, Promise<RobotsRules>>();

  constructor(
    private readonly http: HttpClient,
    private readonly signal: AbortSignal | undefined,
    private readonly timeoutMs: number,
  ) {}

  forUrl(url: string): Promise<RobotsRules> {
    const origin = new URL(url).origin;
    let p = this.byOrigin.get(origin);
    if (!p) {
      p = fetchRobots(this.http, origin, this.signal, this.timeoutMs);
      this.byOrigin.set(origin, p);
    }
    return p;
  }

  /** Rules already fetched for this URL's origin (undefined before forUrl resolved for it). */
  async allows(url: string): Promise<boolean> {
    return (await this.forUrl(url)).allows(url);
  }
}
