// Every /v1 operation is rate limited per client address (discovery included), so the OpenAPI document
// lists a 429 for each one, with and without x402's routes (issue #26: /v1/tools was undocumented).
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../src/http/openapi.js';
import { ToolRegistry } from '../../src/registry/registry.js';
import { tools } from '../../tools/index.js';

describe('OpenAPI rate limits', () => {
  it.each([false, true])('documents 429 on every /v1 operation (x402 %s)', (x402) => {
    const doc = buildOpenApi(new ToolRegistry(tools), { publicUrl: 'http://127.0.0.1:1', version: '0.0.0', x402 }) as {
      paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>>;
    };
    const operations = Object.entries(doc.paths)
      .filter(([path]) => path.startsWith('/v1/'))
      .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ at: `${method.toUpperCase()} ${path}`, op })));
    expect(operations.map((o) => o.at)).toContain('GET /v1/tools');
    for (const { at, op } of operations) expect(op.responses['429'], at).toBeDefined();
  });
});
