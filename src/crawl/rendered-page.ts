// A page as Chromium leaves it once its scripts ran, for render: true: the same precondition wrapper as
// every browser tool (a page from the pool, the guarded proxy for the page and all its sub-requests,
// errors as task errors), returning the rendered HTML for the crawler's own parsing.
import { z } from 'zod';
import { defineBrowserTool } from '../browser/define-browser-tool.js';
import { pageUrlInput, waitInput } from '../browser/input-schemas.js';
import { documentShape, pageOptionsShape } from '../browser/page-options.js';
import { readHtmlCheckingBotWall } from '../browser/bot-wall-check.js';
import type { ToolContext } from '../registry/define-tool.js';

const renderedPage = defineBrowserTool({
  name: 'site.page.rendered',
  title: 'Rendered page (internal to site.map and site.crawl)',
  description: 'Internal: not listed as a tool.',
  input: z.strictObject({ url: pageUrlInput, wait: waitInput, ...pageOptionsShape }),
  output: z.object({ html: z.string(), ...documentShape }),
  price: '0',
  annotations: { readOnlyHint: true, openWorldHint: true },
  timeoutMs: 60_000,
  example: { url: 'https://example.com/' },
  // The page is read once: its HTML, judged for a wall in the same read.
  checksBotWall: true,
  readsDom: true,
  async render(_page, _input, { loaded }) {
    const html = await readHtmlCheckingBotWall(loaded, loaded.current);
    return { html, final_url: loaded.current.url, status_code: loaded.current.status };
  },
});

export interface RenderedPage {
  html: string;
  finalUrl: string;
  status: number | null;
}

export async function renderPage(ctx: ToolContext, url: string, timeoutMs: number): Promise<RenderedPage> {
  const input = renderedPage.input.parse({ url, timeout_ms: Math.max(1000, Math.min(90_000, timeoutMs)) });
  const out = await renderedPage.run(ctx, input);
  return { html: out.html, finalUrl: out.final_url, status: out.status_code };
}
