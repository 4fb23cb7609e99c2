import { z } from 'zod';
import { defineBrowserTool } from '../src/browser/define-browser-tool.js';
import { pageUrlInput, waitInput } from '../src/browser/input-schemas.js';
import { serialiseVisibleDocument } from '../src/browser/page-scripts.js';
import { lazyModule } from '../src/registry/lazy-module.js';

// linkedom, Readability and Turndown: loaded when the first page is converted, not when the tool is listed.
const markdownModule = lazyModule(() => import('../src/browser/markdown.js'));

/** Computed styles are checked on pages up to this many elements (hidden ones are dropped). */
const MAX_STYLED_ELEMENTS = 30_000;

export default defineBrowserTool({
  name: 'browser.markdown',
  title: 'Web page as Markdown',
  description:
    "Loads a web page in headless Chromium (scripts run) and returns it as Markdown. content 'main' (default): the article only (news, blog post, docs page, forum post, product description) without navigation, comments, share bars, related links or cookie banners; a page without an article (a listing) comes back as its body without that chrome. content 'full': the whole visible page. " +
    'Headings, GFM tables, fenced code blocks with their language, nested lists, quotes, images with alt text and absolute links. Also the title, which content was used (source) and the Markdown size in bytes. Pages may only reach public addresses.',
  input: z.strictObject({
    url: pageUrlInput,
    wait: waitInput,
    content: z
      .enum(['main', 'full'])
      .default('main')
      .describe("'main' (default): the article or main content only; 'full': the whole visible page."),
  }),
  output: z.object({
    markdown: z.string().describe('Main content as GitHub-flavoured Markdown.'),
    title: z.string().describe('The page title ("" if none).'),
    source: z.enum(['article', 'page']).describe("'article' when an article was found and converted, 'page' when the page body was (always for content 'full')."),
    bytes: z.number().int().describe('Size of markdown in bytes (UTF-8).'),
  }),
  price: '0.003',
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  timeoutMs: 60_000,
  concurrency: 8,
  example: { url: 'https://example.com/', wait: 'load' },
  async render(page, input) {
    const doc = await page.evaluate(serialiseVisibleDocument, MAX_STYLED_ELEMENTS);
    const { htmlToMarkdown } = await markdownModule();
    const { markdown, title, source } = htmlToMarkdown(doc.html, doc.title, input.content);
    return { markdown, title, source, bytes: Buffer.byteLength(markdown) };
  },
});
