// Read-only SQL the operator console needs beyond the store port: searching every caller's tasks, the
// recent task timeline behind the Overview charts, recent key purchases and lead requests. It runs
// on the store's own connection (SQLite handle or PostgreSQL pool, whose search_path already points at the
// right schema) and only returns ids or plain columns; full task rows still come through the port.
import type { TaskStatus } from '../store/port.js';
import type { SqlRunner } from '../db/sql-runner.js';

export { sqlRunnerOf, type SqlRunner } from '../db/sql-runner.js';

export interface TaskSearch {
  id?: string;
  tool?: string;
  status?: TaskStatus;
  /** A key id, a wallet address, or a local principal. */
  payer?: string;
  limit: number;
}

/** What the search table shows of a task: never its input or result, which may be megabytes. */
export interface TaskSummary {
  id: string;
  tool: string;
  status: TaskStatus;
  payerKind: string;
  payerId: string | null;
  createdAt: number;
  attempts: number;
  maxAttempts: number;
}

/** Matching tasks, newest first, with only the columns the search table shows. */
export async function searchTasks(sql: SqlRunner, q: TaskSearch): Promise<TaskSummary[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (clause: string, value: unknown) => {
    where.push(clause);
    params.push(value);
  };
  if (q.id) add('id = ?', q.id);
  if (q.tool) add('tool = ?', q.tool);
  if (q.status) add('status = ?', q.status);
  if (q.payer) add('LOWER(payer_id) = LOWER(?)', q.payer);
  params.push(q.limit);
  const rows = await sql.all(
    `SELECT id, tool, status, payer_kind, payer_id, created_at, attempts, max_attempts FROM tasks
     ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id DESC LIMIT ?`,
    params,
  );
  return rows.map((r) => ({
    id: String(r.id),
    tool: String(r.tool),
    status: r.status as TaskStatus,
    payerKind: String(r.payer_kind),
    payerId: r.payer_id === null ? null : String(r.payer_id),
    createdAt: Number(r.created_at),
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
  }));
}

/** Ids of matching tasks, newest first. */
export async function searchTaskIds(sql: SqlRunner, q: TaskSearch): Promise<string[]> {
  return (await searchTasks(sql, q)).map((t) => t.id);
}

export interface TimelineRow {
  tool: string;
  status: TaskStatus;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

/** Tasks created since `from`, plus older ones still unfinished (they are part of the queue then). */
export async function taskTimeline(sql: SqlRunner, from: number, limit: number): Promise<TimelineRow[]> {
  const rows = await sql.all(
    `SELECT tool, status, created_at, started_at, finished_at FROM tasks WHERE created_at >= ? OR finished_at IS NULL OR finished_at >= ?
     ORDER BY created_at DESC LIMIT ?`,
    [from, from, limit],
  );
  const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return rows.map((r) => ({
    tool: String(r.tool),
    status: r.status as TaskStatus,
    createdAt: Number(r.created_at),
    startedAt: n(r.started_at),
    finishedAt: n(r.finished_at),
  }));
}

export interface RecentPurchase {
  id: string;
  kind: string;
  keyId: string | null;
  wallet: string;
  micros: number;
  status: string;
  createdAt: number;
}

export async function recentKeyPurchases(sql: SqlRunner, limit: number): Promise<RecentPurchase[]> {
  const rows = await sql.all('SELECT id, kind, key_id, wallet, micros, status, payment, created_at FROM key_purchases ORDER BY created_at DESC LIMIT ?', [
    limit,
  ]);
  return rows.map((r) => ({
    id: String(r.id),
    kind: String(r.kind),
    keyId: r.key_id === null ? null : String(r.key_id),
    wallet: String(r.wallet),
    micros: Number(r.micros),
    // A top-up whose key was revoked before the credit: collected, nothing credited, for the operator to refund.
    status: refundDue(r.payment) ? `${String(r.status)}, refund due` : String(r.status),
    createdAt: Number(r.created_at),
  }));
}

/** The payment record's refund_due flag (jsonb on PostgreSQL, JSON text on SQLite). */
function refundDue(payment: unknown): boolean {
  try {
    const p = typeof payment === 'string' ? (JSON.parse(payment) as unknown) : payment;
    return typeof p === 'object' && p !== null && (p as { refund_due?: unknown }).refund_due === true;
  } catch {
    return false;
  }
}

export interface LeadRequestSummary {
  id: string;
  proName: string;
  category: string;
  zip: string | null;
  isDemo: boolean;
  createdAt: number;
}

/** The lead service's newest requests (requester details are not shown: the console only needs delivery). */
export async function recentLeadRequests(sql: SqlRunner, limit: number): Promise<LeadRequestSummary[]> {
  const rows = await sql.all('SELECT id, pro_name, category, zip, is_demo, created_at FROM requests ORDER BY created_at DESC LIMIT ?', [limit]);
  return rows.map((r) => ({
    id: String(r.id),
    proName: String(r.pro_name),
    category: String(r.category),
    zip: r.zip === null ? null : String(r.zip),
    isDemo: Boolean(Number(r.is_demo)) || r.is_demo === true,
    createdAt: Number(r.created_at),
  }));
}
