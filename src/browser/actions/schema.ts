// The `actions`, `scroll_to_load` and `dismiss_overlays` inputs every browser tool takes. One action is
// an object in Firecrawl's shape, {"type": "click", "selector": "#more"}. The published schema names only
// `type` (tools/list is sent on every turn, for every browser tool); each step is then checked against the
// strict schema of its type, so a bad step is a 400 naming it, e.g. `actions.2.selector`.
import { z } from 'zod';
import { plainIssueMessage } from '../../registry/input-errors.js';
import { cssSelectorInput } from '../input-schemas.js';

export const MAX_ACTIONS = 50;
/** Longest single wait step, ms. */
export const MAX_WAIT_MS = 30_000;
/** Longest text a fill step types, characters. */
export const MAX_FILL_CHARS = 10_000;
/** Longest expression an evaluate step runs, characters. */
export const MAX_EXPRESSION_CHARS = 10_000;

export const ACTION_TYPES = ['wait', 'click', 'fill', 'press', 'select', 'hover', 'scroll', 'screenshot', 'scrape', 'pdf', 'evaluate'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

const selector = cssSelectorInput;

const type = <T extends ActionType>(t: T) => z.literal(t);

/** The strict schema of each action type. */
export const STEP_SCHEMAS = {
  wait: z
    .strictObject({
      type: type('wait'),
      milliseconds: z.number().int().min(0).max(MAX_WAIT_MS).optional(),
      selector: selector.optional(),
      /** visible: wait for the element to appear (default); hidden: for it to disappear. */
      state: z.enum(['visible', 'hidden']).optional(),
    })
    .superRefine((a, ctx) => {
      if ((a.milliseconds === undefined) === (a.selector === undefined))
        ctx.addIssue({ code: 'custom', path: ['milliseconds'], message: 'give exactly one of milliseconds or selector' });
      if (a.state !== undefined && a.selector === undefined) ctx.addIssue({ code: 'custom', path: ['state'], message: 'applies only with selector' });
    }),
  click: z.strictObject({
    type: type('click'),
    selector,
    all: z.boolean().optional(),
    button: z.enum(['left', 'right', 'middle']).optional(),
  }),
  // Without a selector the text is typed into whatever has focus (Firecrawl's "write" after a click).
  fill: z.strictObject({ type: type('fill'), selector: selector.optional(), text: z.string().max(MAX_FILL_CHARS) }),
  press: z.strictObject({
    type: type('press'),
    key: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[\w+\-=[\]\\;',./`]+$/, 'must be a key name such as Enter, Tab, ArrowDown or Control+A'),
  }),
  select: z.strictObject({ type: type('select'), selector, value: z.string().max(1000) }),
  hover: z.strictObject({ type: type('hover'), selector }),
  scroll: z
    .strictObject({
      type: type('scroll'),
      amount: z.number().int().min(-100_000).max(100_000).optional(),
      selector: selector.optional(),
      to: z.literal('bottom').optional(),
    })
    .superRefine((a, ctx) => {
      const given = (['amount', 'selector', 'to'] as const).filter((k) => a[k] !== undefined);
      if (given.length > 1) ctx.addIssue({ code: 'custom', path: [given[1]!], message: `cannot be combined with ${given[0]}` });
    }),
  screenshot: z.strictObject({ type: type('screenshot'), full_page: z.boolean().optional() }),
  // The page's HTML at this point (Firecrawl's scrape action), kept as an artifact.
  scrape: z.strictObject({ type: type('scrape') }),
  // The page printed at this point (Firecrawl's pdf action), an intermediate PDF like screenshot's image.
  pdf: z.strictObject({ type: type('pdf'), landscape: z.boolean().optional(), size: z.enum(['letter', 'a4']).optional() }),
  evaluate: z.strictObject({ type: type('evaluate'), expression: z.string().min(1).max(MAX_EXPRESSION_CHARS) }),
} satisfies Record<ActionType, z.ZodType>;

export type Action = { [T in ActionType]: z.output<(typeof STEP_SCHEMAS)[T]> }[ActionType];

const actionsInput = z
  .array(z.looseObject({ type: z.enum(ACTION_TYPES) }))
  .max(MAX_ACTIONS)
  .superRefine((list, ctx) => {
    list.forEach((step, i) => {
      const checked = STEP_SCHEMAS[step.type].safeParse(step, { error: plainIssueMessage });
      if (checked.success) return;
      for (const issue of checked.error.issues) {
        // An unknown key is named itself, as the registry names unknown top-level fields.
        const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
        ctx.addIssue({ code: 'custom', path: [i, ...path], message: issue.code === 'unrecognized_keys' ? 'is not a known field' : issue.message });
      }
    });
  })
  .describe(
    'Before capture; click|hover: selector; wait: milliseconds|selector,state:hidden; fill: selector?,text; ' +
      'press: key; select: selector,value; scroll: amount|selector|to:bottom; evaluate: expression; pdf: size?,landscape?.',
  );

/** Spread into pageOptionsShape: every browser tool takes them. */
export const pageActionsShape = {
  actions: actionsInput.optional(),
  // The names say it; tools/list carries every word to every model on every turn.
  scroll_to_load: z.boolean().optional(),
  dismiss_overlays: z.boolean().optional(),
};

export interface PageActionOptions {
  actions?: Record<string, unknown>[] | undefined;
  scroll_to_load?: boolean | undefined;
  dismiss_overlays?: boolean | undefined;
}

/** Cross-field rule: an evaluate step needs the page's scripts on. */
export function actionsRefine(v: PageActionOptions & { javascript: boolean }, ctx: z.RefinementCtx): void {
  if (v.javascript) return;
  v.actions?.forEach((a, i) => {
    if (a.type === 'evaluate') ctx.addIssue({ code: 'custom', path: ['actions', i, 'type'], message: 'evaluate needs javascript: true' });
  });
}

/** The validated steps, typed (the input check already passed each one). */
export function typedActions(list: readonly Record<string, unknown>[]): Action[] {
  return list.map((step) => STEP_SCHEMAS[step.type as ActionType].parse(step) as Action);
}

/** True when the task asked for anything done to the page before capture. */
export function wantsPreparation(v: PageActionOptions): boolean {
  return (v.actions?.length ?? 0) > 0 || v.scroll_to_load === true || v.dismiss_overlays === true;
}
