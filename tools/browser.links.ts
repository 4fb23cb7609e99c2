import { z } from 'zod';
import { defineBrowserTool } from '../src/browser/define-browser-tool.js';
import { pageUrlInput, waitInput } from '../src/browser/input-schemas.js';
import { cachedShape, documentShape, PAGE_OPTIONS_REF, pageOptionsRefine, pageOptionsShape } from '../src/browser/page-options.js';
import { actionsOutputShape } from '../src/browser/actions/output.js';
import { collectLinks } from '../src/browser/page-scripts.js';
import { BOUNDED_NOTE, boundedInputShape, boundedOutputShape } from '../src/registry/bounded-result.js';
import { lazyModule } from '../src/registry/lazy-module.js';

// tldts (the public-suffix list) is loaded with the first page, not when the tool is listed.
const linksModule = lazyModule(() => import('../src/browser/links.js'));

const MAX_LINKS = 5000;

export default defineBrowserTool({
  name: 'browser.links',
  title: 'Links of a web page',
  description:
    'Renders a page in Chromium; lists its http(s) links (absolute, with text, in page order, de-duplicated, no fragments; max 5000). ' +
    'internal: same registrable domain as the final page. ' +
    BOUNDED_NOTE +
    ' ' +
    PAGE_OPTIONS_REF,
  input: z
    .strictObject({
      url: pageUrlInput,
      filter: z.enum(['all', 'internal', 'external']).default('all'),
      wait: waitInput,
      ...boundedInputShape,
      ...pageOptionsShape,
    })
    .superRefine(pageOptionsRefine),
  output: z.object({
    count: z.number().int().describe('Number of links returned.'),
    links: z.array(z.object({ url: z.string().describe('Absolute URL.'), text: z.string().describe('Link text ("" if none).') })),
    ...boundedOutputShape,
    ...documentShape,
    ...cachedShape,
    ...actionsOutputShape,
  }),
  price: '0.003',
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  bounded: { kind: 'items', field: 'links', countField: 'count' },
  timeoutMs: 60_000,
  concurrency: 8,
  example: { url: 'https://example.com/', filter: 'external' },
  readsDom: true,
  async render(_page, i, { loaded }) {
    const raw = await loaded.evaluate(collectLinks, MAX_LINKS * 4);
    const { selectLinks } = await linksModule();
    const { url, status } = loaded.current;
    const links = selectLinks(raw, url, i.filter).slice(0, MAX_LINKS);
    return { count: links.length, links, final_url: url, status_code: status };
  },
});
