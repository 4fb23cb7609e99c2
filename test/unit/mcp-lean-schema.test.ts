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

  it('keeps every input property typed, dropping only length caps and a pattern beside a standard format', () => {
    const input = z.strictObject({
      email: z.email().max(254).describe('Address.'),
      headers: z.record(z.string().min(1).max(256), z.string().max(8192)).optional(),
      block: z
        .array(z.enum(['image', 'font']))
        .max(4)
        .optional(),
      delay_ms: z.number().int().min(0).max(10).default(0).describe('Wait.'),
    });
    expect(leanSchema(jsonSchemaOf(input, 'input'), 'input')).toEqual({
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email', description: 'Address.' },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
        block: { type: 'array', items: { type: 'string', enum: ['image', 'font'] } },
        delay_ms: { type: 'integer', minimum: 0, maximum: 10, default: 0, description: 'Wait.' },
      },
      required: ['email'],
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
