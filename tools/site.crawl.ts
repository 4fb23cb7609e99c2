import { z } from 'zod';
import { startUrlChecks } from '../src/crawl/url-checks.js';
import { pageUrlInput } from '../src/browser/input-schemas.js';
import { globList, MAX_CRAWL_PAGES, pageFormats } from '../src/crawl/input-schemas.js';
import { crawlPagesBudgetUsd, PLAIN_PAGE_USD, RENDERED_PAGE_USD } from '../src/crawl/page-prices.js';
import { defineTool } from '../src/registry/define-tool.js';
import { lazyModule } from '../src/registry/lazy-module.js';

const crawlModules = lazyModule(() => Promise.all([import('../src/crawl/crawler.js'), import('../src/net/http-client.js')]));

const count = () => z.number().int();

export default defineTool({
  name: 'site.crawl',
  title: 'Crawl a site',
  description:
    'Crawls a site breadth-first, each page a site.page task. Result: counts and results_url (JSONL in crawl order: url, depth, status, result). ' +
    'same_site/subdomains/include/exclude as site.map. ' +
    'Obeys robots.txt and Crawl-delay, fetches each URL once, bounds traps, max_concurrency per host. ' +
    'max_cost (USD) caps page costs; keys pay pages as created. timeout_ms: per page.',
  input: z.strictObject({
    url: pageUrlInput,
    limit: z.number().int().min(1).max(MAX_CRAWL_PAGES).default(100),
    max_depth: z.number().int().min(0).max(100).default(3),
    include: globList,
    exclude: globList,
    same_site: z.boolean().default(true),
    subdomains: z.boolean().default(false),
    sources: z.enum(['links', 'sitemaps', 'both']).default('both'),
    formats: pageFormats,
    render: z.boolean().default(false),
    max_cost: z.number().positive().max(100_000).optional(),
    max_concurrency: z.number().int().min(1).max(16).default(4),
    timeout_ms: z.number().int().min(1000).max(60_000).default(15_000),
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
  // With x402 the pages are paid with the crawl: one payment cannot grow as pages are found.
  childrenBudget: {
    usd: crawlPagesBudgetUsd,
    max: crawlPagesBudgetUsd({ limit: MAX_CRAWL_PAGES, render: true }),
    rule: `plus ${PLAIN_PAGE_USD} USD a page, ${RENDERED_PAGE_USD} rendered; x402 prepays limit pages or max_cost`,
  },
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
