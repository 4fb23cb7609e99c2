// Types of crawl-site.mjs for the TypeScript tests that serve it.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface CrawlSiteOptions {
  hosts: string[];
  pages: number;
  crawlDelay?: number;
  slowMs?: number;
  port?: () => number;
  delayHost?: string;
}

export interface CrawlSiteStats {
  requests: number;
  disallowed: number;
  byUrl: Map<string, number>;
  trap: number;
  times: { host: string; at: number }[];
}

export interface CrawlSite {
  handler(req: IncomingMessage, res: ServerResponse): void;
  stats: CrawlSiteStats;
  duplicateFetches(): number;
  pageUrl(i: number, suffix?: string): string;
}

export function createCrawlSite(o: CrawlSiteOptions): CrawlSite;
