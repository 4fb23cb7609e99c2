// The one wording for invalid input and the number→string reading for string fields.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseOrInvalid } from '../../src/registry/input-errors.js';
import { jsonSchemaOf } from '../../src/registry/registry.js';
import { numbersToStrings } from '../../src/registry/numeric-strings.js';

function sentenceOf(schema: z.ZodType, raw: unknown): { error: string; field?: string } {
  try {
    parseOrInvalid(schema, raw);
  } catch (err) {
    const e = err as { message: string; field?: string };
    return { error: e.message, ...(e.field !== undefined ? { field: e.field } : {}) };
  }
  throw new Error('expected a failure');
}

describe('plain input errors', () => {
  const schema = z.strictObject({
    name: z.string().min(1).max(5),
    size: z.enum(['s', 'm', 'l']).optional(),
    tags: z.array(z.string()).min(1).optional(),
    url: z.url().optional(),
    n: z.number().int().positive().optional(),
  });
  it.each([
    [{}, 'name: is required', 'name'],
    [{ name: '' }, 'name: must not be empty', 'name'],
    [{ name: 'abcdef' }, 'name: must be at most 5 characters long', 'name'],
    [{ name: 'a', size: 'xl' }, 'size: must be one of s, m, l', 'size'],
    [{ name: 'a', tags: [] }, 'tags: must have at least one item', 'tags'],
    [{ name: 'a', tags: [1] }, 'tags.0: must be a string', 'tags.0'],
    [{ name: 'a', url: 'nope' }, 'url: must be a URL', 'url'],
    [{ name: 'a', n: 1.5 }, 'n: must be an integer', 'n'],
    [{ name: 'a', n: 0 }, 'n: must be greater than 0', 'n'],
    [{ name: 'a', extra: 1 }, 'extra: is not a known field', 'extra'],
  ])('%j → %s', (raw, error, field) => {
    expect(sentenceOf(schema, raw)).toEqual({ error, field });
  });
  it('names the input itself when it is not an object', () => {
    expect(sentenceOf(schema, [])).toEqual({ error: 'input: must be an object' });
  });
});

describe('numbers for string fields', () => {
  const schema = jsonSchemaOf(
    z.object({
      zip: z.string(),
      n: z.number(),
      either: z.union([z.string(), z.number()]),
      list: z.array(z.string()),
      nested: z.object({ id: z.string().nullable() }),
    }),
    'input',
  );
  it('turns finite numbers into decimal strings only where the schema takes strings alone', () => {
    expect(numbersToStrings(schema, { zip: 10001, n: 5, either: 7, list: [1, 'b'], nested: { id: 12 }, other: 3 })).toEqual({
      zip: '10001',
      n: 5,
      either: 7,
      list: ['1', 'b'],
      nested: { id: '12' },
      other: 3,
    });
    expect(numbersToStrings(schema, { zip: Number.NaN })).toEqual({ zip: Number.NaN });
  });
});
