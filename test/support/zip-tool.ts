// A tool with the fields that trip clients (a digit-only zip, an id, a defaulted count, a nested
// object): validation only, and a valid call echoes what the tool received.
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';

export const zipTool = defineTool({
  name: 'test.zip',
  title: 'Zip echo',
  description: 'Returns the zip and pro id it was given.',
  input: z.strictObject({
    zip: z.string().regex(/^\d{5}$/, 'must be exactly five digits'),
    pro_id: z.string().min(1).optional(),
    count: z.number().int().min(1).max(10).default(3),
    contact: z.strictObject({ email: z.email() }).optional(),
  }),
  output: z.object({ zip: z.string(), pro_id: z.string().nullable(), count: z.number() }),
  price: '0.001',
  annotations: { readOnlyHint: true, openWorldHint: false },
  timeoutMs: 5_000,
  example: { zip: '10001' },
  run: async (_ctx, input) => ({ zip: input.zip, pro_id: input.pro_id ?? null, count: input.count }),
});
