import { z } from 'zod';
import { startUrlChecks } from '../src/crawl/url-checks.js';
import { pageUrlInput } from '../src/browser/input-schemas.js';
import { globList, MAX_MAP_URLS } from '../src/crawl/input-schemas.js';
import { defineTool } from '../src/registry/define-tool.js';
import { BOUNDED_NOTE, boundedInputShape, boundedOutputShape } from '../src/registry/bounded-result.js';
import { lazyModule } from '../src/registry/lazy-module.js';

// undici, the XML and robots parsers: loaded with the first map, not when the tool is listed.
const mapModules = lazyModule(() => Promise.all([import('../src/crawl/site-map.js'), import('../src/net/http-client.js')]));

export default defineTool({
  name: 'site.map',
  title: 'Map the URLs of a site',
  description:
    "A site's URLs without rendering its pages: sitemaps (robots.txt Sitemap lines or /sitemap.xml, indexes, .gz), robots.txt Allow paths and the start page's links " +
    '(render: true renders it). Normalised, de-duplicated, robots-disallowed ones left out. same_site: start host only; subdomains: its site. ' +
    'include/exclude: path globs ("/docs/**"). search: words in URL or link text. timeout_ms: per request. ' +
    BOUNDED_NOTE,
  input: z.strictObject({
    url: pageUrlInput,
    include: globList,
    exclude: globList,
    same_site: z.boolean().default(true),
    subdomains: z.boolean().default(false),
    search: z.string().min(1).max(200).optional(),
    sitemap: z.enum(['include', 'skip', 'only']).default('include'),
    render: z.boolean().default(false),
    limit: z.number().int().min(1).max(MAX_MAP_URLS).default(1000),
    timeout_ms: z.number().int().min(1000).max(30_000).default(15_000),
    ...boundedInputShape,
  }),
  output: z.object({
    url: z.string().describe('The start URL, normalised.'),
    count: z.number().int().describe('URLs in the whole map; a part holds fewer.'),
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
    ...boundedOutputShape,
  }),
  price: '0.002',
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  // 5,000 URLs are ~500,000 characters: over MCP a map comes in parts an agent can hold, the rest on request.
  bounded: { kind: 'items', field: 'urls' },
  timeoutMs: 120_000,
  concurrency: 16,
  example: { url: 'https://example.com/', include: ['/docs/**'], limit: 100 },
  ...startUrlChecks,
  async run(ctx, input) {
    const [{ mapSite }, { httpClientService }] = await mapModules();
    return mapSite(ctx, await ctx.use(httpClientService), input);
  },
});
