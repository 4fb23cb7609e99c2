// Task store rows as both dialects return them, and their mapping to the port's types. The columns
// and names are the same on both, and rows come back named after the port's fields (columns.ts); only
// JSON (text on SQLite) and booleans (0/1) are decoded through the dialect, and the payer built.
import type { Dialect } from '../dialect.js';
import type { BatchRow, KeyPurchaseRow, Payer, TaskRow } from '../../store/port.js';
import { camelColumns, type Raw } from '../columns.js';

// Named statements list their columns instead of `*` (see Sql.one).
export const TASK_FIELDS =
  'id, tool, input, status, result, error, error_kind, error_code, payer_kind, payer_id, price_micros, charged_micros, payment, attempts, max_attempts, lease_owner, lease_expires_at, run_after, cancel_requested, created_at, started_at, finished_at';

export const TASK_COLUMNS = camelColumns(TASK_FIELDS);

/** A task as read: the port's fields, with its payer in two columns and JSON and booleans not yet decoded. */
export type TaskRecord = Raw<Omit<TaskRow, 'payer'>, 'input' | 'result' | 'payment' | 'cancelRequested'> & { payerKind: Payer['kind']; payerId: string | null };

/** Field by field, not by rest and spread: this runs for every task created and claimed, and a literal is ~15× faster. */
export function toTask(d: Dialect, r: TaskRecord): TaskRow {
  return {
    id: r.id,
    tool: r.tool,
    input: d.fromJson(r.input),
    status: r.status,
    result: d.fromJson(r.result),
    error: r.error,
    errorKind: r.errorKind,
    errorCode: r.errorCode ?? null,
    payer: { kind: r.payerKind, id: r.payerId },
    priceMicros: r.priceMicros,
    chargedMicros: r.chargedMicros,
    payment: d.fromJson(r.payment),
    attempts: r.attempts,
    maxAttempts: r.maxAttempts,
    leaseOwner: r.leaseOwner,
    leaseExpiresAt: r.leaseExpiresAt,
    runAfter: r.runAfter,
    cancelRequested: d.fromBool(r.cancelRequested),
    createdAt: r.createdAt,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
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
