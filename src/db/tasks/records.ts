// Task store rows as both dialects return them, and their mapping to the port's types. The columns
// and names are the same on both; only JSON (text on SQLite) and booleans (0/1) are decoded through
// the dialect. Tasks are read by their column names (the queue's operations use them as they are); keys,
// batches and purchases come back in the port's shape (columns.ts).
import type { Dialect } from '../dialect.js';
import type { BatchRow, KeyPurchaseRow, Payer, TaskRow, TaskStatus } from '../../store/port.js';
import { camelColumns, type Raw } from '../columns.js';

// Named statements list their columns instead of `*` (see Sql.one).
export const TASK_COLUMNS =
  'id, tool, input, status, result, error, error_kind, payer_kind, payer_id, price_micros, charged_micros, payment, attempts, max_attempts, lease_owner, lease_expires_at, run_after, cancel_requested, created_at, started_at, finished_at';

export interface TaskRecord {
  id: string;
  tool: string;
  input: unknown;
  status: TaskStatus;
  result: unknown;
  error: string | null;
  error_kind: string | null;
  payer_kind: Payer['kind'];
  payer_id: string | null;
  price_micros: number;
  charged_micros: number;
  payment: unknown;
  attempts: number;
  max_attempts: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  run_after: number;
  cancel_requested: unknown;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export function toTask(d: Dialect, r: TaskRecord): TaskRow {
  return {
    id: r.id,
    tool: r.tool,
    input: d.fromJson(r.input),
    status: r.status,
    result: d.fromJson(r.result),
    error: r.error,
    errorKind: r.error_kind as TaskRow['errorKind'],
    payer: { kind: r.payer_kind, id: r.payer_id },
    priceMicros: r.price_micros,
    chargedMicros: r.charged_micros,
    payment: d.fromJson(r.payment),
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    leaseOwner: r.lease_owner,
    leaseExpiresAt: r.lease_expires_at,
    runAfter: r.run_after,
    cancelRequested: d.fromBool(r.cancel_requested),
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
}

/** An API key as the port shows it (never its hash). */
export const KEY_COLUMNS = camelColumns('id, prefix, label, balance_micros, created_at, revoked_at');

export const BATCH_COLUMNS = camelColumns('id, tool, payer_kind, payer_id, total, unique_count AS unique, price_micros, created_at');

export type BatchRecord = Omit<BatchRow, 'payer'> & { payerKind: Payer['kind']; payerId: string | null };

export const toBatch = ({ payerKind, payerId, ...b }: BatchRecord): BatchRow => ({ ...b, payer: { kind: payerKind, id: payerId } });

export const PURCHASE_COLUMNS = camelColumns('id, kind, key_id, wallet, micros, status, payment, created_at, settled_at');

export type PurchaseRecord = Raw<KeyPurchaseRow, 'payment'>;

export const toPurchase = (d: Dialect, r: PurchaseRecord): KeyPurchaseRow => ({ ...r, payment: d.fromJson(r.payment) });
