import { z } from 'zod';
import { ToolError } from '../src/errors.js';
import { actionsOutputShape } from '../src/browser/actions/output.js';
import { defineBrowserTool } from '../src/browser/define-browser-tool.js';
import { cssSelectorInput, exactlyOneSource, htmlInput, pageUrlInput, waitInput } from '../src/browser/input-schemas.js';
import { cachedShape, documentShape, PAGE_OPTIONS_REF, pageOptionsRefine, pageOptionsShape } from '../src/browser/page-options.js';
import { BOUNDED_NOTE, boundedInputShape, boundedOutputShape } from '../src/registry/bounded-result.js';

/** Larger snapshots are refused rather than cut (a cut tree misleads about what is on the page). */
const MAX_SNAPSHOT_CHARS = 5_000_000;

export default defineBrowserTool({
  name: 'browser.snapshot',
  title: 'Accessibility snapshot of a web page',
  description:
    'Renders url or html (one) in Chromium; returns its accessibility tree as text ' +
    '(Playwright ARIA snapshot: roles, names, states, values, link URLs, like - button "Subscribe") to decide what to click. ' +
    BOUNDED_NOTE +
    ' ' +
    PAGE_OPTIONS_REF,
  input: z
    .strictObject({
      url: pageUrlInput.optional(),
      html: htmlInput.optional(),
      selector: cssSelectorInput.optional().describe('Only the tree under this element.'),
      wait: waitInput,
      ...boundedInputShape,
      ...pageOptionsShape,
    })
    .superRefine(exactlyOneSource)
    .superRefine(pageOptionsRefine),
  output: z.object({
    snapshot: z.string().describe('The ARIA snapshot.'),
    title: z.string().describe('The page title ("" if none).'),
    ...boundedOutputShape,
    final_url: documentShape.final_url,
    status_code: documentShape.status_code,
    ...cachedShape,
    ...actionsOutputShape,
  }),
  price: '0.003',
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  bounded: { kind: 'text', field: 'snapshot' },
  timeoutMs: 60_000,
  concurrency: 8,
  example: { url: 'https://example.com/' },
  readsDom: true,
  async render(page, i, { loaded, budget }) {
    await loaded.settle();
    const root = page.locator(i.selector ?? 'body').first();
    let snapshot: string;
    try {
      snapshot = await root.ariaSnapshot({ timeout: budget.left() });
    } catch (err) {
      if ((err as Error).name !== 'TimeoutError' || i.selector === undefined) throw err;
      throw new ToolError(`selector: no element matched "${i.selector.slice(0, 200)}".`, 'permanent');
    }
    if (snapshot.length > MAX_SNAPSHOT_CHARS)
      throw new ToolError(`The snapshot is ${snapshot.length} characters, more than the ${MAX_SNAPSHOT_CHARS}-character limit; give a selector.`, 'input');
    return { snapshot, title: await loaded.title(), final_url: loaded.current.url, status_code: loaded.current.status };
  },
});
