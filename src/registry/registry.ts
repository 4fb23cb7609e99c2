// The registry built from tools/index.ts: lookup by name, prices in micro-USD, and the public descriptor
// (JSON Schema from zod) that /v1/tools, OpenAPI, MCP, A2A and x402 all derive from.
import { z } from 'zod';
import { NotFound } from '../errors.js';
import type { AnyTool, ToolAnnotations } from './define-tool.js';
import { parseOrInvalid } from './input-errors.js';
import { numbersToStrings } from './numeric-strings.js';
import { microsToUsd, usdToMicros } from './usd.js';

export { zodToInvalidInput } from './input-errors.js';

export interface ToolDescriptor {
  name: string;
  title: string;
  description: string;
  /** `usd` for every input unless `rule` (the tool's input-dependent price, in words) says otherwise. */
  price: { usd: string; micro_usd: number; credits: number; rule?: string };
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

/** Distinct input prices kept as priced views of their tool (x402 caches per view); beyond it the cache restarts. */
const MAX_PRICED_VIEWS = 1_000;

export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** The input-dependent part of a price, in words, for listings: absent when every input costs `price`. */
export function priceRule(t: AnyTool): { rule?: string } {
  const rules = [t.priceFor?.rule, t.childrenBudget?.rule].filter((r): r is string => r !== undefined);
  return rules.length > 0 ? { rule: rules.join('; ') } : {};
}

/** "0.001 USD (0.003 USD with render: true)": the price as listings write it. */
export function priceText(t: AnyTool): string {
  const { rule } = priceRule(t);
  return rule ? `${t.price} USD (${rule})` : `${t.price} USD`;
}

export class ToolRegistry {
  private readonly byName = new Map<string, AnyTool>();
  private readonly descriptors = new Map<string, ToolDescriptor>();
  private readonly pricedViews = new Map<string, AnyTool>();

  constructor(tools: readonly AnyTool[]) {
    for (const tool of tools) {
      if (this.byName.has(tool.name)) throw new Error(`duplicate tool name ${tool.name}`);
      usdToMicros(tool.price);
      // An input price that is not a valid amount fails at start, not at a caller's request.
      for (const p of [tool.priceFor, tool.childrenBudget]) {
        if (!p) continue;
        usdToMicros(p.usd(tool.input.parse(tool.example) as never));
        usdToMicros(p.max);
      }
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

  /** What a task of `name` costs for this validated input (the base price without one). */
  priceMicros(name: string, input?: unknown): number {
    return usdToMicros(this.priceUsd(name, input));
  }

  priceUsd(name: string, input?: unknown): string {
    const tool = this.get(name);
    return input !== undefined && tool.priceFor ? tool.priceFor.usd(input as never) : tool.price;
  }

  /** The most one task of `name` can cost paid once, whatever its input. */
  maxUpfrontPriceMicros(name: string): number {
    const tool = this.get(name);
    const own = Math.max(usdToMicros(tool.price), tool.priceFor ? usdToMicros(tool.priceFor.max) : 0);
    return own + (tool.childrenBudget ? usdToMicros(tool.childrenBudget.max) : 0);
  }

  /**
   * The price of a task paid once and for all (x402): its own price plus, for a tool with child tasks, the
   * most they can cost (see childrenBudget).
   */
  upfrontPriceMicros(name: string, input: unknown): number {
    const tool = this.get(name);
    return this.priceMicros(name, input) + (tool.childrenBudget ? usdToMicros(tool.childrenBudget.usd(input as never)) : 0);
  }

  /**
   * The tool as a payment sees it for this input: `price` is what the input costs up front. The x402 gate
   * words its requirements and refusals from it; one object per distinct price, so what it caches per tool stays cached.
   */
  pricedFor(name: string, input: unknown): AnyTool {
    const tool = this.get(name);
    const usd = microsToUsd(this.upfrontPriceMicros(name, input));
    if (usd === tool.price) return tool;
    const key = `${name} ${usd}`;
    let view = this.pricedViews.get(key);
    if (!view) {
      if (this.pricedViews.size >= MAX_PRICED_VIEWS) this.pricedViews.clear();
      this.pricedViews.set(key, (view = { ...tool, price: usd }));
    }
    return view;
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
        price: { usd: t.price, micro_usd: micros, credits: micros, ...priceRule(t) },
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
