// Input pieces site.map and site.crawl share.
import { z } from 'zod';

// The limits live here, not in the modules that enforce them, so the tool files (which a worker process loads
// for their schemas alone) do not pull in the fetch and crawl code.
export const MAX_MAP_URLS = 5000;
export const MAX_CRAWL_PAGES = 10_000;

/** Globs on the URL path: at most 50, each at most 200 characters. */
export const globList = z.array(z.string().min(1).max(200)).max(50).optional();

/** What to keep of each page. */
export const pageFormats = z
  .array(z.enum(['markdown', 'links', 'content', 'metadata']))
  .max(4)
  .default(['markdown', 'links'])
  .describe('markdown: the main content; content: the HTML.');
