import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonSchemaOf } from '../../src/registry/registry.js';
import { leanSchema } from '../../src/mcp/lean-schema.js';

describe('leanSchema', () => {
  const output = z.object({
    count: z.number().int().describe('How many.'),
    code: z.number().int().nullable(),
    status: z.enum(['A', 'B']).nullable(),
    nested: z.object({ description: z.string().describe('A field that is called description.') }),
    list: z.array(z.object({ n: z.number().int().min(0) })),
  });

  it('collapses nullable anyOf and strips output descriptions, enums, bounds, required lists and additionalProperties', () => {
    expect(leanSchema(jsonSchemaOf(output, 'output'), 'output')).toEqual({
      type: 'object',
      properties: {
        count: { type: 'integer' },
        code: { type: ['integer', 'null'] },
        status: { type: ['string', 'null'] },
        nested: { type: 'object', properties: { description: { type: 'string' } } },
        list: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } } } },
      },
    });
  });

  it('keeps descriptions, defaults and additionalProperties: false in input schemas', () => {
    const input = z.strictObject({ domain: z.string().describe('The domain.'), n: z.number().int().default(3).describe('How many.') });
    expect(leanSchema(jsonSchemaOf(input, 'input'), 'input')).toEqual({
      type: 'object',
      properties: { domain: { type: 'string', description: 'The domain.' }, n: { type: 'integer', default: 3, description: 'How many.' } },
      required: ['domain'],
      additionalProperties: false,
    });
  });

  it('lists an input property marked x-compact by name only (its tool description documents it)', () => {
    const input = z.strictObject({
      url: z.string().describe('The page.'),
      delay_ms: z.number().int().max(10).default(0).describe('Wait.').meta({ 'x-compact': true }),
    });
    expect(jsonSchemaOf(input, 'input').properties).toMatchObject({ delay_ms: { 'x-compact': true, maximum: 10 } });
    expect(leanSchema(jsonSchemaOf(input, 'input'), 'input')).toEqual({
      type: 'object',
      properties: { url: { type: 'string', description: 'The page.' }, delay_ms: {} },
      required: ['url'],
      additionalProperties: false,
    });
  });

  it('leaves a nullable object (not a scalar) as anyOf', () => {
    const schema = leanSchema(jsonSchemaOf(z.object({ ssl: z.object({ ok: z.boolean() }).nullable() }), 'output'), 'output');
    expect((schema.properties as Record<string, unknown>).ssl).toEqual({
      anyOf: [{ type: 'object', properties: { ok: { type: 'boolean' } } }, { type: 'null' }],
    });
  });
});
