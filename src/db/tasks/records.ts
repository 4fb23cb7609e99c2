// Task store rows as both dialects return them, and their mapping to the port's types. The columns
// and names are the same on both; only JSON (text on SQLite) and booleans (0/1) are decoded through
// the dialect.
import type { Dialect } from '../dialect.js';
import type { ApiKeyRow, BatchRow, KeyPurchaseRow, Payer, TaskRow, TaskStatus } from '../../store/port.js';

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

export interface KeyRecord {
  id: string;
  prefix: string;
  label: string | null;
  balance_micros: number;
  created_at: number;
  revoked_at: number | null;
}

export function toKey(r: KeyRecord): ApiKeyRow {
  return { id: r.id, prefix: r.prefix, label: r.label, balanceMicros: r.balance_micros, createdAt: r.created_at, revokedAt: r.revoked_at };
}

export interface BatchRecord {
  id: string;
  tool: string;
  payer_kind: Payer['kind'];
  payer_id: string | null;
  total: number;
  unique_count: number;
  price_micros: number;
  created_at: number;
}

export function toBatch(r: BatchRecord): BatchRow {
  return {
    id: r.id,
    tool: r.tool,
    payer: { kind: r.payer_kind, id: r.payer_id },
    total: r.total,
    unique: r.unique_count,
    priceMicros: r.price_micros,
    createdAt: r.created_at,
  };
}

export interface PurchaseRecord {
  id: string;
  kind: KeyPurchaseRow['kind'];
  key_id: string | null;
  wallet: string;
  micros: number;
  status: KeyPurchaseRow['status'];
  payment: unknown;
  created_at: number;
  settled_at: number | null;
}

export function toPurchase(d: Dialect, r: PurchaseRecord): KeyPurchaseRow {
  return {
    id: r.id,
    kind: r.kind,
    keyId: r.key_id,
    wallet: r.wallet,
    micros: r.micros,
    status: r.status,
    payment: d.fromJson(r.payment),
    createdAt: r.created_at,
    settledAt: r.settled_at,
  };
}

/** The payment nonce key as stored: the network as given, the rest lower-case (hex may arrive in either case). */
export function nonceKey(n: { network: string; asset: string; payer: string; nonce: string }): string[] {
  return [n.network, n.asset.toLowerCase(), n.payer.toLowerCase(), n.nonce.toLowerCase()];
}
