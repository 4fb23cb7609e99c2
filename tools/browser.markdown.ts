import { z } from 'zod';
import { defineBrowserTool } from '../src/browser/define-browser-tool.js';
import { pageUrlInput, waitInput } from '../src/browser/input-schemas.js';
import { htmlToMarkdown } from '../src/browser/markdown.js';
import { serialiseVisibleDocument } from '../src/browser/page-scripts.js';

/** Computed styles are checked on pages up to this many elements (hidden ones are dropped). */
const MAX_STYLED_ELEMENTS = 30_000;

export default defineBrowserTool({
  name: 'browser.markdown',
  title: 'Web page as Markdown',
  description:
    "Loads a web page in headless Chromium (scripts run) and returns its main content as Markdown: the article when one is found, otherwise the page body without navigation, header, footer, sidebars and cookie banners. " +
    'GFM tables, fenced code blocks with their language, absolute links. Also the title and the Markdown size in bytes. Pages may only reach public addresses.',
  input: z.strictObject({ url: pageUrlInput, wait: waitInput }),
  output: z.object({
    markdown: z.string().describe('Main content as GitHub-flavoured Markdown.'),
    title: z.string().describe('The page title ("" if none).'),
    bytes: z.number().int().describe('Size of markdown in bytes (UTF-8).'),
  }),
  price: '0.003',
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  timeoutMs: 60_000,
  concurrency: 8,
  example: { url: 'https://example.com/', wait: 'load' },
  async render(page) {
    const doc = await page.evaluate(serialiseVisibleDocument, MAX_STYLED_ELEMENTS);
    const { markdown, title } = htmlToMarkdown(doc.html, doc.title);
    return { markdown, title, bytes: Buffer.byteLength(markdown) };
  },
});
