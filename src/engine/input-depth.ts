// A bound on how deeply tool input may nest, checked before anything walks the input recursively
// (schema parsing, hashing, storing): JSON.parse is iterative, so a small body can still nest tens of
// thousands of levels and overflow the stack of a recursive walk. No tool's input needs more than a few.
import { InvalidInput } from '../errors.js';

export const MAX_INPUT_DEPTH = 64;

/**
 * Throws 400 INPUT_TOO_DEEP when `value` nests objects/arrays more than `max` levels (the value itself
 * is level 1). Iterative, and stops at the first level too deep, so its cost is bounded by the input.
 */
export function assertInputDepth(value: unknown, max = MAX_INPUT_DEPTH): void {
  // Each entry: a container, its depth, and the top-level field it sits under (for the error's `field`).
  const stack: [unknown, number, string | undefined][] = [[value, 1, undefined]];
  while (stack.length > 0) {
    const [v, depth, field] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth > max) {
      throw new InvalidInput(
        `Input is nested deeper than ${max} levels${field !== undefined ? ` (in ${field})` : ''}; no tool takes input that deep.`,
        field,
        'INPUT_TOO_DEEP',
      );
    }
    if (Array.isArray(v)) {
      for (const item of v) if (item !== null && typeof item === 'object') stack.push([item, depth + 1, field]);
    } else {
      for (const [k, item] of Object.entries(v)) if (item !== null && typeof item === 'object') stack.push([item, depth + 1, field ?? k]);
    }
  }
}
