// A task as every part of the store port sees it. Times are epoch milliseconds, money micro-USD.

export type TaskStatus = 'pending' | 'running' | 'complete' | 'failed' | 'cancelled';
export type FailureKind = 'transient' | 'permanent' | 'input' | 'timeout' | 'internal' | 'cancelled' | 'crashed';

export interface Payer {
  /** 'key' (prepaid API key), 'x402' (wallet payment), 'local' (stdio MCP, not charged). */
  kind: 'key' | 'x402' | 'local';
  /** Key id, wallet address, or a local principal name. */
  id: string | null;
}

export interface TaskRow {
  id: string;
  tool: string;
  input: unknown;
  status: TaskStatus;
  result: unknown;
  error: string | null;
  errorKind: FailureKind | null;
  /** A stable code naming why it failed (BLOCKED_BY_SITE…), when the tool gave one. */
  errorCode: string | null;
  payer: Payer;
  priceMicros: number;
  chargedMicros: number;
  payment: Record<string, unknown> | null;
  attempts: number;
  maxAttempts: number;
  leaseOwner: string | null;
  leaseExpiresAt: number | null;
  runAfter: number;
  cancelRequested: boolean;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

export interface NewTask extends Pick<TaskRow, 'id' | 'tool' | 'input' | 'payer' | 'priceMicros' | 'maxAttempts'> {
  now: number;
  payment?: Record<string, unknown> | null;
  /** Where to POST the task's terminal event (docs/webhooks.md), and which status words to send (null: all). */
  webhook?: TaskWebhook | null;
  /**
   * The session (its worker pool's lease owner) that alone runs this task while it lives: `agent-utility mcp`
   * and the embedded commands, whose caller hears progress and fetches artifacts from that process. Absent:
   * any worker runs it (serve, worker).
   */
  session?: string | null;
}

export interface TaskWebhook {
  url: string;
  /** Space-separated status words ("completed failed"); null sends every terminal event. */
  events: string | null;
}
