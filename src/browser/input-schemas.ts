// Input pieces shared by the six browser tools.
import { z } from 'zod';
import { selectorProblem, SELECTOR_MAX_LENGTH } from './css-selector.js';

/** Most bytes of `html` a task may render (the HTTP body limit may be lower). */
export const HTML_MAX_BYTES = 2_000_000;

export const pageUrlInput = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http or https URL' })
  // No description: the name and format say it, and tools/list is sent on every turn.
  .max(2048);

export const htmlInput = z
  .string()
  .min(1)
  .max(HTML_MAX_BYTES)
  .refine((s) => Buffer.byteLength(s) <= HTML_MAX_BYTES, { message: `must be at most ${HTML_MAX_BYTES} bytes` })
  .describe('Max 2 MB; relative URLs do not resolve.');

export const waitInput = z.enum(['load', 'dom', 'idle']).default('load').describe('idle: network quiet 0.5 s.');

/** A CSS selector Playwright can use, checked up front (the 400 says what is wrong with it). */
export const cssSelectorInput = z
  .string()
  .min(1)
  .max(SELECTOR_MAX_LENGTH)
  .superRefine((s, ctx) => {
    const problem = selectorProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export type WaitMode = z.infer<typeof waitInput>;

/**
 * For tools taking `url` or `html`: exactly one must be present. The issues name both fields, so the 400
 * says which two fields are in question.
 */
export function exactlyOneSource(value: { url?: string | undefined; html?: string | undefined }, ctx: z.RefinementCtx): void {
  const hasUrl = value.url !== undefined;
  const hasHtml = value.html !== undefined;
  if (hasUrl === hasHtml) {
    const message = hasUrl ? 'give exactly one of url or html, not both' : 'give exactly one of url or html (neither was given)';
    ctx.addIssue({ code: 'custom', path: ['url'], message });
    ctx.addIssue({ code: 'custom', path: ['html'], message });
  }
}
