// Checks a CSS selector before a task is accepted, without a browser: css-what parses it, and the few
// things css-what tolerates but browsers reject (empty parts, dangling combinators, unknown
// pseudo-classes) are refused here. Whatever still slips through fails at run time naming the key.
import { parse, type Selector } from 'css-what';

// Pseudo-classes Chromium accepts in querySelectorAll (standard and widely used prefixed ones).
const PSEUDO_CLASSES = new Set([
  'active',
  'any-link',
  'autofill',
  'checked',
  'default',
  'defined',
  'dir',
  'disabled',
  'empty',
  'enabled',
  'first',
  'first-child',
  'first-of-type',
  'focus',
  'focus-visible',
  'focus-within',
  'fullscreen',
  'has',
  'host',
  'host-context',
  'hover',
  'in-range',
  'indeterminate',
  'invalid',
  'is',
  'lang',
  'last-child',
  'last-of-type',
  'left',
  'link',
  'modal',
  'not',
  'nth-child',
  'nth-last-child',
  'nth-last-of-type',
  'nth-of-type',
  'only-child',
  'only-of-type',
  'open',
  'optional',
  'out-of-range',
  'placeholder-shown',
  'popover-open',
  'paused',
  'playing',
  'read-only',
  'read-write',
  'required',
  'right',
  'root',
  'scope',
  'state',
  'target',
  'user-invalid',
  'user-valid',
  'valid',
  'visited',
  'where',
  'picture-in-picture',
  '-webkit-any',
  '-webkit-any-link',
  '-webkit-autofill',
  '-internal-autofill-selected',
]);
const WITH_ARGUMENT = new Set([
  'dir',
  'has',
  'host',
  'host-context',
  'is',
  'lang',
  'not',
  'nth-child',
  'nth-last-child',
  'nth-last-of-type',
  'nth-of-type',
  'state',
  'where',
  '-webkit-any',
]);
const NTH = /^\s*(?:[+-]?\d*n\s*(?:[+-]\s*\d+)?|[+-]?\d+|odd|even)\s*(?:\s+of\s+.+)?$/i;
const COMBINATORS = new Set(['child', 'parent', 'sibling', 'adjacent', 'descendant', 'column-combinator']);

export const SELECTOR_MAX_LENGTH = 1000;

/** Undefined when the selector is fine, else a short reason. */
export function selectorProblem(selector: string): string | undefined {
  if (selector.trim() === '') return 'is empty';
  if (selector.length > SELECTOR_MAX_LENGTH) return `is longer than ${SELECTOR_MAX_LENGTH} characters`;
  let parsed: Selector[][];
  try {
    parsed = parse(selector);
  } catch (err) {
    return `is not a valid CSS selector (${(err as Error).message})`;
  }
  return checkList(parsed, false);
}

function checkList(list: Selector[][], relative: boolean): string | undefined {
  if (list.length === 0) return 'is not a valid CSS selector (nothing to match)';
  for (const compound of list) {
    if (compound.length === 0) return 'is not a valid CSS selector (an empty part between commas)';
    const first = compound[0]!;
    const last = compound[compound.length - 1]!;
    // :has() arguments are relative selectors and may start with a combinator; nothing may end with one.
    if (COMBINATORS.has(first.type) && !(relative && first.type !== 'descendant')) return 'is not a valid CSS selector (it starts with a combinator)';
    if (COMBINATORS.has(last.type)) return 'is not a valid CSS selector (it ends with a combinator)';
    for (const part of compound) {
      if (part.type !== 'pseudo') continue;
      const name = part.name.toLowerCase();
      if (!PSEUDO_CLASSES.has(name)) return `uses an unknown pseudo-class :${part.name}`;
      if (WITH_ARGUMENT.has(name) && part.data === null) return `needs an argument for :${part.name}()`;
      if (!WITH_ARGUMENT.has(name) && part.data !== null) return `takes no argument for :${part.name}`;
      if (Array.isArray(part.data)) {
        const inner = checkList(part.data, name === 'has');
        if (inner) return inner;
      } else if (typeof part.data === 'string' && name.startsWith('nth-')) {
        if (!NTH.test(part.data)) return `has an invalid :${part.name}() argument`;
        const of = /\s+of\s+(.+)$/i.exec(part.data);
        if (of) {
          const inner = selectorProblem(of[1]!);
          if (inner) return inner;
        }
      }
    }
  }
  return undefined;
}
