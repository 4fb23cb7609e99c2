// The lead service's storage port and the shapes its operations take and answer. SQL lives only in
// src/leads/db/.
import type { Bound } from '../db/operations.js';
import type * as operations from './db/operations.js';
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

/**
 * The lead service's storage: every operation of src/leads/db/operations.ts (one file each, written once
 * for SQLite and PostgreSQL, any transaction inside it) with the connection bound, so the port is exactly
 * what those operations take and answer.
 */
export type LeadStore = Bound<typeof operations> & {
  readonly dialect: 'sqlite' | 'postgres';
  close(): Promise<void>;
};
