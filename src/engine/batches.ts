// Batches: many inputs of one tool in one call. Every input is validated before anything is charged;
// identical inputs become one task (run once, charged once); each distinct input is an ordinary task, so
// workers, leases, retries and refunds need nothing new. Tasks are created grouped by target (see
// groupedOrder) so that what can be shared per target (an SMTP session) is.
import { AppError, InvalidInput, PaymentRequired, Unauthorized } from '../errors.js';
import { newId } from '../ids.js';
import { microsToUsd } from '../registry/registry.js';
import type { BatchCounts, BatchRow, NewTask, Payer, TaskRow, TaskWebhook } from '../store/port.js';
import { requestHash } from '../idempotency.js';
import type { Engine } from './engine.js';

/** Rows listed in a 400 for a batch with invalid inputs. */
export const MAX_LISTED_ERRORS = 20;
/** Inputs validated at once: tool prechecks may resolve names. */
const VALIDATE_CONCURRENCY = 16;

export interface BatchRowError {
  /** 1-based position of the input (for CSV, the data row after the header). */
  row: number;
  field: string | null;
  problem: string;
}

/** Validates every input; throws one 400 listing the first bad rows when any is invalid. */
export async function validateBatch(engine: Engine, tool: string, inputs: readonly unknown[], o: { chargeKeyId?: string } = {}): Promise<unknown[]> {
  engine.registry.get(tool);
  // Prechecks only for a key that can pay at least one item (engine.validate).
  if (o.chargeKeyId !== undefined) await engine.assertKeyCanPay(o.chargeKeyId, tool);
  const max = engine.config.batch.maxItems;
  if (inputs.length === 0) throw new InvalidInput('inputs must hold at least one input.', 'inputs');
  if (inputs.length > max) throw new InvalidInput(`inputs holds ${inputs.length} items; a batch takes at most ${max}.`, 'inputs');
  const out: unknown[] = new Array(inputs.length);
  const errors: BatchRowError[] = [];
  let next = 0;
  const worker = async () => {
    while (next < inputs.length) {
      const i = next++;
      try {
        out[i] = await engine.validate(tool, inputs[i]);
      } catch (err) {
        if (!(err instanceof AppError) || err.status >= 500) throw err;
        errors.push({ row: i + 1, field: err.field ?? null, problem: err.message });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(VALIDATE_CONCURRENCY, inputs.length) }, worker));
  if (errors.length > 0) {
    errors.sort((a, b) => a.row - b.row);
    const first = errors[0]!;
    throw new AppError(
      400,
      'BATCH_INVALID',
      `${errors.length} of ${inputs.length} inputs are invalid (row ${first.row}: ${first.problem}); nothing was charged.`,
      {
        field: 'inputs',
        extra: { invalid_count: errors.length, errors: errors.slice(0, MAX_LISTED_ERRORS) },
      },
    );
  }
  return out;
}

export interface BatchSubmitOptions {
  payer: Payer;
  chargeKeyId?: string;
  /** Skip the price (local CLI use). */
  free?: boolean;
  /** POST batch.completed here once every item has finished. */
  webhook?: TaskWebhook | null;
}

/** Creates the batch from validated inputs, one task per distinct input, charged in one transaction. */
export async function submitBatch(engine: Engine, tool: string, inputs: readonly unknown[], opts: BatchSubmitOptions): Promise<BatchRow> {
  const now = Date.now();
  const maxAttempts = engine.registry.get(tool).sideEffects ? 1 : engine.config.engine.maxAttempts;
  const byHash = new Map<string, number>();
  const distinct: unknown[] = [];
  const itemDistinct = inputs.map((input) => {
    const hash = requestHash(tool, input);
    let index = byHash.get(hash);
    if (index === undefined) {
      index = distinct.push(input) - 1;
      byHash.set(hash, index);
    }
    return index;
  });
  // Tasks are created target by target (the tool's batchKey), with ids rising in that order, so workers
  // claim the items of one target (e-mail domain) together and the tool can share work between them.
  const order = groupedOrder(engine.registry.get(tool).batchKey, distinct);
  const position = new Array<number>(distinct.length);
  order.forEach((d, p) => (position[d] = p));
  const ids = Array.from({ length: distinct.length }, () => newId('task')).sort();
  // Each task its own price (site.page costs more with render: true): the batch is charged their sum.
  const tasks: NewTask[] = order.map((d, p) => ({
    id: ids[p]!,
    tool,
    input: distinct[d],
    payer: opts.payer,
    priceMicros: opts.free ? 0 : engine.registry.priceMicros(tool, distinct[d]),
    maxAttempts,
    now,
  }));
  const itemTasks = itemDistinct.map((d) => position[d]!);
  const outcome = await engine.store.createBatch(
    { id: newId('batch'), tool, payer: opts.payer, now, tasks, itemTasks, webhook: opts.webhook ?? null, session: engine.session ?? null },
    opts.chargeKeyId ? { chargeKeyId: opts.chargeKeyId } : {},
  );
  switch (outcome.kind) {
    case 'created':
      // Workers wake on any submission; one event per task keeps the created-tasks metric exact.
      for (const t of tasks) engine.events.emit('submitted', pendingRow(t));
      return outcome.batch;
    case 'insufficient_credits': {
      const total = tasks.reduce((sum, t) => sum + t.priceMicros, 0);
      throw new PaymentRequired(
        `Not enough credits: this batch of ${tasks.length} distinct inputs costs ${microsToUsd(total)} USD and the key has ${microsToUsd(outcome.balanceMicros)} USD left.`,
        'INSUFFICIENT_CREDITS',
        { price_usd: microsToUsd(total), balance_usd: microsToUsd(outcome.balanceMicros) },
      );
    }
    case 'key_invalid':
      // Keys are never deleted: the row was found when the request came in, so it was revoked since.
      throw new Unauthorized('This API key was revoked.', 'API_KEY_REVOKED');
  }
}

/** Indexes of `inputs` grouped by key (groups in order of first appearance, inputs in order within one). */
export function groupedOrder(key: ((input: never) => string) | undefined, inputs: readonly unknown[]): number[] {
  const all = inputs.map((_, i) => i);
  if (!key) return all;
  const groups = new Map<string, number[]>();
  for (const i of all) {
    const k = key(inputs[i] as never);
    const g = groups.get(k);
    if (g) g.push(i);
    else groups.set(k, [i]);
  }
  return [...groups.values()].flat();
}

/** All items settled (complete, failed or cancelled). */
export function batchDone(counts: BatchCounts): boolean {
  return counts.pending === 0 && counts.running === 0;
}

/** The row the store inserted for `t` (what submission listeners see), without reading it back. */
export function pendingRow(t: NewTask): TaskRow {
  return {
    id: t.id,
    tool: t.tool,
    input: t.input,
    status: 'pending',
    result: null,
    error: null,
    errorKind: null,
    errorCode: null,
    payer: t.payer,
    priceMicros: t.priceMicros,
    chargedMicros: 0,
    payment: null,
    attempts: 0,
    maxAttempts: t.maxAttempts,
    leaseOwner: null,
    leaseExpiresAt: null,
    runAfter: t.now,
    cancelRequested: false,
    createdAt: t.now,
    startedAt: null,
    finishedAt: null,
  };
}
