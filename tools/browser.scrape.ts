import { z } from 'zod';
import { ToolError } from '../src/errors.js';
import { selectorProblem } from '../src/browser/css-selector.js';
import { defineBrowserTool } from '../src/browser/define-browser-tool.js';
import { pageUrlInput, waitInput } from '../src/browser/input-schemas.js';
import { scrapeSelectors } from '../src/browser/page-scripts.js';

const MAX_KEYS = 50;
const MAX_MATCHES_PER_KEY = 1000;

const input = z.strictObject({
  url: pageUrlInput,
  select: z
    .record(z.string().min(1).max(100), z.string())
    .superRefine((select, ctx) => {
      const keys = Object.keys(select);
      if (keys.length === 0) ctx.addIssue({ code: 'custom', message: 'needs at least one name: CSS selector pair' });
      if (keys.length > MAX_KEYS) ctx.addIssue({ code: 'custom', message: `takes at most ${MAX_KEYS} selectors` });
      for (const key of keys) {
        const problem = selectorProblem(select[key]!);
        if (problem) ctx.addIssue({ code: 'custom', path: [key], message: `selector "${select[key]!.slice(0, 100)}" ${problem}` });
      }
    })
    .describe('Map of result name to CSS selector, e.g. {"title": "h1", "prices": ".price"}. At most 50.'),
  wait: waitInput,
});

const value = z.union([z.string(), z.array(z.string()), z.null()]);

export default defineBrowserTool({
  name: 'browser.scrape',
  title: 'Text of elements picked by CSS selectors',
  description:
    'Loads a web page in headless Chromium (scripts run) and, for each name in select, returns the trimmed rendered text of the elements its CSS selector matches: ' +
    'a string when exactly one element matches, an array of strings (document order, at most 1000) when several do, null when none does. Pages may only reach public addresses.',
  input,
  output: z.record(z.string(), value).describe('One entry per name in select: string (one match), array of strings (several), or null (none).'),
  price: '0.003',
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  timeoutMs: 60_000,
  concurrency: 8,
  example: { url: 'https://example.com/', select: { title: 'h1', paragraphs: 'p' } },
  async render(page, i) {
    const outcomes = await page.evaluate(scrapeSelectors, { select: Object.entries(i.select), maxPerKey: MAX_MATCHES_PER_KEY });
    const result: Record<string, string | string[] | null> = {};
    for (const o of outcomes) {
      if ('error' in o) throw new ToolError(`select.${o.key}: the browser rejected the selector "${i.select[o.key]}" (${o.error})`, 'input');
      result[o.key] = o.texts.length === 0 ? null : o.texts.length === 1 ? o.texts[0]! : o.texts;
    }
    return result;
  },
});
