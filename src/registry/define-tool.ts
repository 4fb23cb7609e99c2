// The tool contract. A tool is one file under tools/, default-exporting defineTool({...}); defineTool
// exists only so TypeScript infers the input and output types from the zod schemas.
import type { z } from 'zod';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { BoundedSpec } from './bounded-result.js';
import type { ServiceDef } from './services.js';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint: boolean;
}

/** What a tool's run() receives besides its input. No transport shapes, only plain services. */
export interface ToolContext {
  readonly taskId: string;
  /** Stable per task across retries and restarts: side-effect tools pass it downstream as an idempotency key. */
  readonly idempotencyKey: string;
  /**
   * Who pays for the task, as "kind:id" (e.g. "key:key_abc", "x402:0xabc…", "local:stdio"): tools that reuse
   * earlier results keep them within one payer. Absent when a tool is run outside the engine.
   */
  readonly payerScope?: string;
  /** Attempt number, 1-based. */
  readonly attempt: number;
  /** Aborted when the task is cancelled or its timeout passes. */
  readonly signal: AbortSignal;
  readonly config: Config;
  readonly log: Logger;
  use<T>(service: ServiceDef<T>): Promise<T>;
  /** Optional progress report (MCP forwards it as notifications/progress). */
  progress(done: number, total?: number, message?: string): void;
}

/** What submission-time checks receive (before anyone is charged). */
export interface SubmitContext {
  readonly config: Config;
  use<T>(service: ServiceDef<T>): Promise<T>;
}

export interface ToolDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** Public dotted name, e.g. "dns.lookup"; the file is tools/<name>.ts. */
  name: string;
  title: string;
  /** Prose a model reads: what it does, units, limits. */
  description: string;
  input: I;
  output: O;
  /** Price in USD as a decimal string, e.g. "0.001": the price of every input unless priceFor says otherwise. */
  price: string;
  /**
   * A price that depends on the input (site.page with render: true runs Chromium): `usd` gives this input's
   * price, `rule` says how in words, shown next to `price` wherever prices are listed. Keys, batches (each
   * item its own price), x402 requirements and their verification all price a task with it.
   */
  priceFor?: InputPrice<z.output<I>>;
  /**
   * A tool whose task creates child tasks (site.crawl): the most its children can cost for this input, in USD,
   * and how in words (shown like priceFor's rule). A key pays children as they are created; a payment that
   * cannot grow later (x402) pays this up front with the task, and the children then cost nothing more.
   */
  childrenBudget?: InputPrice<z.output<I>>;
  annotations: ToolAnnotations;
  /** Upper bound for one attempt; the task fails with a timeout past it. */
  timeoutMs: number;
  /** Most tasks of this tool running at once in one worker process. */
  concurrency?: number;
  /** True when running twice would repeat an effect outside (a request sent): never retried automatically. */
  sideEffects?: boolean;
  /** One valid input, used by docs, OpenAPI and tests. */
  example: z.input<I>;
  /** Data attribution required by a licence (shown in the descriptor). */
  attribution?: string;
  /**
   * Checks that need more than the schema but no network (e.g. a literal blocked address), run before the
   * caller is asked to pay. Throw AppError.
   */
  precheck?(ctx: SubmitContext, input: z.output<I>): Promise<void>;
  /**
   * Checks that reach out (e.g. resolving the target's name), run only once the caller has shown how they
   * pay and before the task is created or charged, so an unpaying caller cannot make us resolve names.
   */
  admit?(ctx: SubmitContext, input: z.output<I>): Promise<void>;
  /**
   * The target an input reaches (e-mail domain, DNS zone, URL host). A batch creates its tasks grouped by
   * it, so workers claim the items of one target together and the tool can share work between them.
   */
  batchKey?(input: z.output<I>): string;
  /**
   * Where a result's bulk text is, for a tool whose result can be large: every front door then returns one
   * window of it (max_chars, offset in the input) and the rest is read from the stored task.
   */
  bounded?: BoundedSpec;
  run(ctx: ToolContext, input: z.output<I>): Promise<z.output<O>>;
}

export interface InputPrice<T> {
  usd(input: T): string;
  /** The most usd() returns for any valid input (bounds what an x402 payer may have committed). */
  max: string;
  /** E.g. "0.003 USD with render: true". */
  rule: string;
}

export type AnyTool = ToolDefinition<z.ZodType, z.ZodType>;

export function defineTool<I extends z.ZodType, O extends z.ZodType>(def: ToolDefinition<I, O>): ToolDefinition<I, O> {
  return def;
}
