// The shapes the lead store's operations take and answer (store.ts is the port built from those operations,
// so the operations cannot import their shapes from it without a cycle).
import type { DeliveryRecord, QuotaKind, RequestRecord, Usage } from './types.js';

export interface DirectoryStats {
  total: number;
  demo: number;
}

export interface UpsertProsResult {
  inserted: number;
  updated: number;
  /** Pros deleted because `replace` was asked and they were not in the input. */
  removed: number;
  /** Demo pros deleted because real ones arrived. */
  demoRemoved: number;
}

export type QuotaOutcome = { ok: true; usage: Usage } | { ok: false; exceeded: QuotaKind | 'categories'; usage: Usage };

export interface NewRequest {
  request: RequestRecord;
  deliveries: DeliveryRecord[];
  /** Same phone + pro + category since this instant → the existing request is returned, nothing is written. */
  dedupSince: number;
  idempotency?: { key: string; bodyHash: string };
}

export interface IdempotencyRecord {
  requestId: string;
  bodyHash: string;
}

export interface RegisterAttemptCounts {
  byIp: number;
  byEmail: number;
  /** When the oldest attempt from this IP inside the window was made (ms), if any. */
  oldestByIp: number | null;
}
