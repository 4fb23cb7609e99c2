import { z } from 'zod';
import { ToolError } from '../src/errors.js';
import { selectorProblem } from '../src/browser/css-selector.js';
import { defineBrowserTool } from '../src/browser/define-browser-tool.js';
import { pageUrlInput, waitInput } from '../src/browser/input-schemas.js';
import { cachedShape, documentShape, PAGE_OPTIONS_REF, pageOptionsRefine, pageOptionsShape } from '../src/browser/page-options.js';
import { actionsOutputShape } from '../src/browser/actions/output.js';
import { scrapeSelectors } from '../src/browser/page-scripts.js';
import { BOUNDED_NOTE, boundedInputShape, boundedOutputShape, WINDOW_FIELDS } from '../src/registry/bounded-result.js';

const MAX_KEYS = 50;
const MAX_MATCHES_PER_KEY = 1000;
/**
 * Names a select entry may not take: the result's own fields, the window fields of a part, and the
 * artifact fields other tools return (a caller-named file_id or file_url must never pass for a stored file).
 */
const KEPT = ['final_url', 'status_code', 'cached', 'actions'];
const RESERVED = new Set([...KEPT, ...WINDOW_FIELDS, 'file_id', 'file_url', 'content_type', 'bytes', 'expires_at']);
const ATTRIBUTE_NAME = /^[^\s"'>/=\0]{1,100}$/;

const selection = z.union([
  z.string(),
  z.strictObject({
    selector: z.string(),
    attr: z
      .string()
      .refine((s) => ATTRIBUTE_NAME.test(s), { message: 'must be an attribute name such as href' })
      .optional(),
    all: z.boolean().optional(),
  }),
]);
type Selection = z.output<typeof selection>;

const input = z
  .strictObject({
    url: pageUrlInput,
    select: z
      .record(z.string().min(1).max(100), selection)
      .superRefine((select, ctx) => {
        const keys = Object.keys(select);
        if (keys.length === 0) ctx.addIssue({ code: 'custom', message: 'needs at least one name: CSS selector pair' });
        if (keys.length > MAX_KEYS) ctx.addIssue({ code: 'custom', message: `takes at most ${MAX_KEYS} selectors` });
        for (const key of keys) {
          if (RESERVED.has(key)) ctx.addIssue({ code: 'custom', path: [key], message: `"${key}" is a name the service uses in results; choose another name` });
          const s = select[key]!;
          const css = typeof s === 'string' ? s : s.selector;
          const problem = selectorProblem(css);
          if (problem)
            ctx.addIssue({ code: 'custom', path: typeof s === 'string' ? [key] : [key, 'selector'], message: `selector "${css.slice(0, 100)}" ${problem}` });
        }
      })
      .describe('Name to CSS selector, e.g. {"h":"h1","links":{"selector":"a","attr":"href","all":true}}. At most 50.'),
    wait: waitInput,
    ...boundedInputShape,
    ...pageOptionsShape,
  })
  .superRefine(pageOptionsRefine);

const value = z.union([z.string(), z.array(z.string()), z.null()]);

function shape(texts: string[], all: boolean | undefined): string | string[] | null {
  if (all === true) return texts;
  if (all === false || texts.length <= 1) return texts[0] ?? null;
  return texts;
}

function css(s: Selection): string {
  return typeof s === 'string' ? s : s.selector;
}

export default defineBrowserTool({
  name: 'browser.scrape',
  title: 'Text of a web page by CSS selector',
  description:
    "Renders a page in Chromium; for each name in select, the text (or attr) of its selector's matches: " +
    'a string for one, an array (max 1000) for several or with all: true, null for none. ' +
    BOUNDED_NOTE +
    ' ' +
    PAGE_OPTIONS_REF,
  input,
  output: z
    .object({ ...documentShape, ...cachedShape, ...actionsOutputShape, ...boundedOutputShape })
    .catchall(value)
    .describe('One entry per name in select: string (one match), array of strings (several), or null (none); plus final_url, status_code.'),
  price: '0.003',
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  bounded: { kind: 'values', keep: KEPT },
  timeoutMs: 60_000,
  concurrency: 8,
  example: { url: 'https://example.com/', select: { title: 'h1', paragraphs: 'p', links: { selector: 'a', attr: 'href', all: true } } },
  readsDom: true,
  async render(_page, i, { loaded }) {
    const entries = Object.entries(i.select);
    const outcomes = await loaded.evaluate(scrapeSelectors, {
      select: entries.map(([key, s]): [string, string, string | null] => [key, css(s), typeof s === 'string' ? null : (s.attr ?? null)]),
      maxPerKey: MAX_MATCHES_PER_KEY,
    });
    const result: Record<string, string | string[] | null> = {};
    for (const o of outcomes) {
      const s = i.select[o.key]!;
      if ('error' in o) throw new ToolError(`select.${o.key}: the browser rejected the selector "${css(s)}" (${o.error})`, 'input');
      result[o.key] = shape(o.texts, typeof s === 'string' ? undefined : s.all);
    }
    return { ...result, final_url: loaded.current.url, status_code: loaded.current.status } as { final_url: string; status_code: number | null } & Record<
      string,
      string | string[] | null
    >;
  },
});
