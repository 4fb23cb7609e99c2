// Test tools for the MCP and A2A front doors: one that reports progress as it goes, and one that produces
// an artifact through the real artifact store, so progress, resource links, inline images and
// resources/read are exercised without depending on a particular production tool.
import { crc32 } from 'node:zlib';
import { z } from 'zod';
import { defineTool, type AnyTool } from '../../src/registry/define-tool.js';
import { artifactLinkShape, publishArtifact } from '../../src/artifacts/publish.js';

const annotations = { readOnlyHint: true, openWorldHint: false };

export const progressTool = defineTool({
  name: 'test.progress',
  title: 'Progress',
  description: 'Reports `steps` progress steps, `ms` apart, then returns how many it reported.',
  input: z.object({ steps: z.number().int().min(1).max(20), ms: z.number().int().min(0).max(1000).default(20) }),
  output: z.object({ steps: z.number() }),
  price: '0.002',
  annotations,
  timeoutMs: 10_000,
  example: { steps: 3 },
  run: async (ctx, input) => {
    for (let i = 1; i <= input.steps; i++) {
      await new Promise((r) => setTimeout(r, input.ms));
      ctx.signal.throwIfAborted();
      ctx.progress(i, input.steps, `step ${i} of ${input.steps}`);
    }
    return { steps: input.steps };
  },
});

/** A valid 1×1 PNG, padded with a tEXt chunk to the requested size so size caps can be tested. */
export function pngOfSize(bytes: number): Buffer {
  const base = Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082',
    'hex',
  );
  if (bytes <= base.length) return base;
  const padding = bytes - base.length - 12;
  const data = Buffer.concat([Buffer.from('Comment\0'), Buffer.alloc(Math.max(0, padding - 8), 0x61)]);
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write('tEXt', 4, 'latin1');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  const iend = base.subarray(base.length - 12);
  return Buffer.concat([base.subarray(0, base.length - 12), chunk, iend]);
}

export const artifactTool = defineTool({
  name: 'test.artifact',
  title: 'Artifact',
  description: 'Stores a PNG of about `bytes` bytes (or a PDF) as an artifact and returns its link.',
  input: z.object({ bytes: z.number().int().min(1).max(5_000_000), kind: z.enum(['png', 'pdf']).default('png') }),
  output: z.object({ ...artifactLinkShape, bytes: z.number().int() }),
  price: '0.003',
  annotations,
  timeoutMs: 10_000,
  example: { bytes: 100 },
  run: async (ctx, input) => {
    const body = input.kind === 'png' ? pngOfSize(input.bytes) : Buffer.from('%PDF-1.4\n%test\n%%EOF\n');
    const link = await publishArtifact(ctx, body, input.kind === 'png' ? 'image/png' : 'application/pdf');
    return { ...link, bytes: body.byteLength };
  },
});

/**
 * Returns the fields it is given, as browser.scrape returns a value under each name the caller chose: the
 * way a caller could put an artifact's fields into a result of their own.
 */
export const namedFieldsTool = defineTool({
  name: 'test.named_fields',
  title: 'Named fields',
  description: 'Returns `fields` (name to string) as its result.',
  input: z.object({ fields: z.record(z.string().max(100), z.string().max(2000)) }),
  output: z.object({}).catchall(z.string()),
  price: '0.001',
  annotations,
  timeoutMs: 10_000,
  example: { fields: { a: 'b' } },
  run: async (_ctx, input) => ({ ...input.fields }),
});

export const mcpTestTools: AnyTool[] = [progressTool, artifactTool];
