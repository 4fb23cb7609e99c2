import { z } from 'zod';
import { startUrlChecks } from '../src/crawl/url-checks.js';
import { pageUrlInput } from '../src/browser/input-schemas.js';
import { MAX_CRAWL_PAGES } from '../src/crawl/crawler.js';
import { globList, pageFormats } from '../src/crawl/input-schemas.js';
import { defineTool } from '../src/registry/define-tool.js';
import { lazyModule } from '../src/registry/lazy-module.js';

const crawlModules = lazyModule(() => Promise.all([import('../src/crawl/crawler.js'), import('../src/net/http-client.js')]));

const count = () => z.number().int();

export default defineTool({
  name: 'site.crawl',
  title: 'Crawl a site',
  description:
    'Crawls a site breadth-first from url: every page is its own site.page task (retried, refunded if it fails), results in crawl order as paged JSONL at ' +
    'results_url, each line with the page URL, depth, status and result. Follows links (sources: links, sitemaps or both, default both) up to max_depth ' +
    '(default 3) and limit pages (1-10000, default 100); same_site (default true) and subdomains scope the hosts, include/exclude are globs on the path. ' +
    'Obeys robots.txt (user agent agent-utility, Crawl-delay), fetches each normalised URL once, at most max_concurrency pages of one host at once, and bounds ' +
    'traps (calendars, session ids, repeating segments, query explosions, redirect loops). render false (default) fetches pages plainly at 0.001 USD a page; ' +
    'true renders them in Chromium at 0.003 USD a page; max_cost (USD) stops the crawl before it would cost more. Pages are charged as they are created; ' +
    'pay with an API key. formats per page: markdown, links, content (HTML), metadata.',
  input: z.strictObject({
    url: pageUrlInput,
    limit: z.number().int().min(1).max(MAX_CRAWL_PAGES).default(100).describe('Most pages, 1-10000 (default 100).'),
    max_depth: z.number().int().min(0).max(100).default(3).describe('Most links from the start page (default 3; 0 = the start page only).'),
    include: globList.describe('Crawl only URLs whose path matches one of these globs, e.g. "/docs/**".'),
    exclude: globList.describe('Skip URLs whose path matches one of these globs.'),
    same_site: z.boolean().default(true).describe('Only the start page host (default true).'),
    subdomains: z.boolean().default(false).describe('With same_site: also other hosts of the same site (default false).'),
    sources: z.enum(['links', 'sitemaps', 'both']).default('both').describe("Where pages are found: links, the site's sitemaps, or both (default)."),
    formats: pageFormats,
    render: z.boolean().default(false).describe('Render each page in Chromium (0.003 USD a page) instead of fetching it (0.001 USD, default).'),
    max_cost: z.number().positive().max(100_000).optional().describe('Stop before the pages would cost more than this many USD.'),
    max_concurrency: z
      .number()
      .int()
      .min(1)
      .max(16)
      .default(4)
      .describe('Most pages of one host fetched at once, 1-16 (default 4; 1 when robots.txt sets a Crawl-delay).'),
    timeout_ms: z.number().int().min(1000).max(60_000).default(15_000).describe('Limit for each page in ms (default 15000).'),
  }),
  output: z.object({
    url: z.string().describe('The start URL, normalised.'),
    pages: count().describe('Pages crawled (one site.page task each).'),
    counts: z.object({ complete: count(), failed: count(), cancelled: count() }),
    skipped: z
      .object({ robots: count(), duplicates: count(), depth: count(), traps: count(), out_of_scope: count() })
      .describe('URLs found and not fetched, by reason.'),
    traps: z.object({ repeating_segments: count(), too_long: count(), calendar: count(), query_explosion: count() }),
    stopped_by: z.enum(['done', 'limit', 'max_cost', 'credits']).describe('done: nothing left to crawl; else the bound that ended it.'),
    cost_usd: z.string().describe('Price of the pages created (failed ones are refunded).'),
    results_url: z.string().describe('JSONL of the pages in crawl order (?cursor=&limit= to page), signed: works without the key for 24 hours.'),
  }),
  price: '0.002',
  annotations: { readOnlyHint: true, openWorldHint: true },
  timeoutMs: 6 * 60 * 60 * 1000,
  // A crawl waits on its pages' tasks: few at once per worker, so pages always find free slots.
  concurrency: 2,
  example: { url: 'https://example.com/docs/', limit: 200, max_depth: 2, include: ['/docs/**'] },
  ...startUrlChecks,
  async run(ctx, input) {
    const [{ crawlSite }, { httpClientService }] = await crawlModules();
    return crawlSite(ctx, await ctx.use(httpClientService), input);
  },
});
