import { z } from 'zod';
import { ToolError } from '../src/errors.js';
import { defineBrowserTool } from '../src/browser/define-browser-tool.js';
import { pageUrlInput, waitInput } from '../src/browser/input-schemas.js';

/** Larger rendered documents are refused rather than truncated (a cut document is not the page). */
const MAX_HTML_BYTES = 10_000_000;

export default defineBrowserTool({
  name: 'browser.content',
  title: 'Rendered HTML of a web page',
  description:
    'Loads a web page in headless Chromium, lets its scripts run, and returns the resulting HTML (the live DOM serialised, up to 10 MB), the page title and the HTML size in bytes. ' +
    'wait chooses when to take it: load (default), dom or idle. Pages may only reach public addresses.',
  input: z.strictObject({ url: pageUrlInput, wait: waitInput }),
  output: z.object({
    html: z.string().describe('The rendered document as HTML.'),
    title: z.string().describe('The page title ("" if none).'),
    bytes: z.number().int().describe('Size of html in bytes (UTF-8).'),
  }),
  price: '0.003',
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  timeoutMs: 60_000,
  concurrency: 8,
  example: { url: 'https://example.com/', wait: 'load' },
  async render(page) {
    const html = await page.content();
    const bytes = Buffer.byteLength(html);
    if (bytes > MAX_HTML_BYTES) throw new ToolError(`The rendered page is ${bytes} bytes of HTML, more than the ${MAX_HTML_BYTES}-byte limit.`, 'input');
    return { html, title: await page.title(), bytes };
  },
});
