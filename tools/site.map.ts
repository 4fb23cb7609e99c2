import { z } from 'zod';
import { startUrlChecks } from '../src/crawl/url-checks.js';
import { pageUrlInput } from '../src/browser/input-schemas.js';
import { MAX_MAP_URLS } from '../src/crawl/site-map.js';
import { globList } from '../src/crawl/input-schemas.js';
import { defineTool } from '../src/registry/define-tool.js';
import { lazyModule } from '../src/registry/lazy-module.js';

// undici, the XML and robots parsers: loaded with the first map, not when the tool is listed.
const mapModules = lazyModule(() => Promise.all([import('../src/crawl/site-map.js'), import('../src/net/http-client.js')]));

export default defineTool({
  name: 'site.map',
  title: 'Map the URLs of a site',
  description:
    "Lists a site's URLs without rendering its pages: the sitemaps (robots.txt Sitemap: lines, else /sitemap.xml; sitemap indexes and .gz followed), " +
    'paths robots.txt allows by name, and the links of the start page (fetched, or rendered in Chromium with render: true). URLs are normalised ' +
    '(fragments, default ports, tracking and session parameters dropped) and de-duplicated; those robots.txt disallows are left out. ' +
    'same_site (default true) keeps the start host only, with subdomains also its other hosts; include/exclude are globs on the path ("/docs/**"); ' +
    'search keeps URLs whose address or link text contains every word. sitemap: include (default), skip or only. limit 1-5000, default 1000.',
  input: z.strictObject({
    url: pageUrlInput,
    include: globList.describe('Keep only URLs whose path matches one of these globs, e.g. "/docs/**".'),
    exclude: globList.describe('Drop URLs whose path matches one of these globs.'),
    same_site: z.boolean().default(true).describe('Only the start page host (default true).'),
    subdomains: z.boolean().default(false).describe('With same_site: also other hosts of the same site (default false).'),
    search: z.string().min(1).max(200).optional().describe('Words that must all appear in the URL or its link text.'),
    sitemap: z.enum(['include', 'skip', 'only']).default('include').describe('Use the sitemaps (include, default), not (skip), or only them.'),
    render: z.boolean().default(false).describe('Render the start page in Chromium to read its links (default false: fetch it).'),
    limit: z.number().int().min(1).max(MAX_MAP_URLS).default(1000).describe('Most URLs returned, 1-5000 (default 1000).'),
    timeout_ms: z.number().int().min(1000).max(30_000).default(15_000).describe('Limit for each request in ms (default 15000).'),
  }),
  output: z.object({
    url: z.string().describe('The start URL, normalised.'),
    count: z.number().int(),
    urls: z.array(
      z.object({
        url: z.string(),
        source: z.enum(['sitemap', 'links', 'robots']).describe('Where the URL was found first.'),
        lastmod: z.string().nullable().describe("The sitemap's lastmod, as written; null when none."),
        title: z.string().nullable().describe('Link text when found as a link; null otherwise.'),
      }),
    ),
    disallowed: z.number().int().describe('URLs found but left out because robots.txt disallows them.'),
    sitemaps_read: z.boolean(),
  }),
  price: '0.002',
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  timeoutMs: 120_000,
  concurrency: 16,
  example: { url: 'https://example.com/', include: ['/docs/**'], limit: 100 },
  ...startUrlChecks,
  async run(ctx, input) {
    const [{ mapSite }, { httpClientService }] = await mapModules();
    return mapSite(ctx, await ctx.use(httpClientService), input);
  },
});
