// The lead service's storage port and the shapes its operations take and answer. SQL lives only in
// src/leads/db/.
import type { Bound } from '../db/operations.js';
import type * as operations from './db/operations.js';

export type { DirectoryStats, IdempotencyRecord, NewRequest, QuotaOutcome, RegisterAttemptCounts, UpsertProsResult } from './store-shapes.js';

/**
 * The lead service's storage: every operation of src/leads/db/operations.ts (one file each, written once
 * for SQLite and PostgreSQL, any transaction inside it) with the connection bound, so the port is exactly
 * what those operations take and answer.
 */
export type LeadStore = Bound<typeof operations> & {
  readonly dialect: 'sqlite' | 'postgres';
  close(): Promise<void>;
};
