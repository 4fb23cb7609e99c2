// The registry built from tools/index.ts: lookup by name, prices in micro-USD, and the public descriptor
// (JSON Schema from zod) that /v1/tools, OpenAPI, MCP, A2A and x402 all derive from.
import { z } from 'zod';
import { NotFound } from '../errors.js';
import type { AnyTool, ToolAnnotations } from './define-tool.js';
import { parseOrInvalid } from './input-errors.js';
import { numbersToStrings } from './numeric-strings.js';
import { usdToMicros } from './usd.js';

export { zodToInvalidInput } from './input-errors.js';

export interface ToolDescriptor {
  name: string;
  title: string;
  description: string;
  price: { usd: string; micro_usd: number; credits: number };
  input_schema: Record<string, unknown>;
  output_schema: Record<string, unknown>;
  annotations: ToolAnnotations;
  timeout_ms: number;
  side_effects: boolean;
  example: unknown;
  attribution?: string;
  endpoint: string;
}

export { microsToUsd, usdToMicros } from './usd.js';

export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

export class ToolRegistry {
  private readonly byName = new Map<string, AnyTool>();
  private readonly descriptors = new Map<string, ToolDescriptor>();

  constructor(tools: readonly AnyTool[]) {
    for (const tool of tools) {
      if (this.byName.has(tool.name)) throw new Error(`duplicate tool name ${tool.name}`);
      usdToMicros(tool.price);
      this.byName.set(tool.name, tool);
    }
  }

  get names(): string[] {
    return [...this.byName.keys()];
  }

  list(): AnyTool[] {
    return [...this.byName.values()];
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  get(name: string): AnyTool {
    const tool = this.byName.get(name);
    if (!tool) {
      throw new NotFound(`Unknown tool "${name}". Known tools: ${this.names.join(', ')}.`, 'UNKNOWN_TOOL');
    }
    return tool;
  }

  /** Only the named tools (an operator's allowlist); unknown names are an error. */
  subset(names: readonly string[] | undefined): ToolRegistry {
    if (!names) return this;
    for (const n of names) this.get(n);
    return new ToolRegistry(this.list().filter((t) => names.includes(t.name)));
  }

  priceMicros(name: string): number {
    return usdToMicros(this.get(name).price);
  }

  descriptor(name: string): ToolDescriptor {
    let d = this.descriptors.get(name);
    if (!d) {
      const t = this.get(name);
      const micros = usdToMicros(t.price);
      d = {
        name: t.name,
        title: t.title,
        description: t.description,
        price: { usd: t.price, micro_usd: micros, credits: micros },
        input_schema: jsonSchemaOf(t.input, 'input'),
        output_schema: jsonSchemaOf(t.output, 'output'),
        annotations: t.annotations,
        timeout_ms: t.timeoutMs,
        side_effects: t.sideEffects ?? false,
        example: t.example,
        ...(t.attribution ? { attribution: t.attribution } : {}),
        endpoint: `/v1/tools/${t.name}/tasks`,
      };
      this.descriptors.set(name, d);
    }
    return d;
  }

  /**
   * Parses a tool's input; the error names the first bad field in one plain sentence. Numbers sent for
   * string fields (zip 10001) are read as their decimal text first.
   */
  parseInput(name: string, raw: unknown): unknown {
    const tool = this.get(name);
    return parseOrInvalid(tool.input, numbersToStrings(this.descriptor(name).input_schema, raw ?? {}));
  }
}
