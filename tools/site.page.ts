import { z } from 'zod';
import { startUrlChecks } from '../src/crawl/url-checks.js';
import { pageUrlInput } from '../src/browser/input-schemas.js';
import { pageFormats } from '../src/crawl/input-schemas.js';
import { PLAIN_PAGE_USD, RENDERED_PAGE_USD, pagePriceUsd } from '../src/crawl/page-prices.js';
import { defineTool } from '../src/registry/define-tool.js';
import { lazyModule } from '../src/registry/lazy-module.js';

const pageModules = lazyModule(() => Promise.all([import('../src/crawl/page-fetch.js'), import('../src/net/http-client.js')]));

export default defineTool({
  name: 'site.page',
  title: 'One page as the crawler reads it',
  description:
    'One page as site.crawl reads it: fetched (render: true renders it in Chromium), with status, links and, per formats, markdown, content (HTML) and metadata. ' +
    'Redirects are not followed: the target is in redirect. depth is echoed.',
  input: z.strictObject({
    url: pageUrlInput,
    depth: z.number().int().min(0).max(1000).default(0),
    render: z.boolean().default(false),
    formats: pageFormats,
    timeout_ms: z.number().int().min(1000).max(60_000).default(15_000),
  }),
  output: z.object({
    url: z.string(),
    depth: z.number().int(),
    final_url: z.string(),
    status_code: z.number().int().describe('HTTP status; 0 when none was received.'),
    content_type: z.string(),
    redirect: z.string().nullable(),
    links: z.array(z.string()),
    markdown: z.string().optional(),
    content: z.string().optional(),
    metadata: z
      .object({
        title: z.string(),
        description: z.string().nullable(),
        canonical: z.string().nullable(),
        language: z.string().nullable(),
        og: z.record(z.string(), z.string()),
        robots: z.string().nullable(),
      })
      .optional(),
  }),
  price: PLAIN_PAGE_USD,
  // Rendering runs Chromium: priced like a browser tool's page.
  priceFor: { usd: (input) => pagePriceUsd(input.render), max: RENDERED_PAGE_USD, rule: `${RENDERED_PAGE_USD} USD with render: true` },
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  timeoutMs: 90_000,
  concurrency: 64,
  example: { url: 'https://example.com/', formats: ['markdown', 'links'] },
  ...startUrlChecks,
  batchKey: (input) => new URL(input.url).host,
  async run(ctx, input) {
    const [{ fetchPage }, { httpClientService }] = await pageModules();
    return fetchPage(ctx, await ctx.use(httpClientService), input);
  },
});
