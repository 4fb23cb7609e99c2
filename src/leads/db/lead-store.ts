// The lead store on either database: every LeadStore method is one operation file in this folder, written
// once for both dialects (the few dialect differences are named inside the operation that has them).
// SQLite lives in DATA_DIR/leads.db; on PostgreSQL the lead tables share the task store's schema.
import { migrate } from '../../db/migrate.js';
import type { PlanDb } from '../../db/plan.js';
import { PostgresDb } from '../../db/postgres.js';
import type { PostgresConnectionOptions } from '../../db/postgres-pool.js';
import { SqliteDb } from '../../db/sqlite.js';
import type { LeadStore } from '../store.js';
import { canAccessRequest } from './can-access-request.js';
import { claimDueDeliveries } from './claim-due-deliveries.js';
import { completeSearch } from './complete-search.js';
import { consumeQuota } from './consume-quota.js';
import { consumeVerification } from './consume-verification.js';
import { countRegisterAttempts } from './count-register-attempts.js';
import { createRequest } from './create-request.js';
import { createSearch } from './create-search.js';
import { createVerification } from './create-verification.js';
import { directoryStats } from './directory-stats.js';
import { eraseRequesterDetails } from './erase-requester-details.js';
import { failSearch } from './fail-search.js';
import { findIdempotency } from './find-idempotency.js';
import { findKeyByHash } from './find-key-by-hash.js';
import { findProsInBox } from './find-pros-in-box.js';
import { getPro } from './get-pro.js';
import { getRequest } from './get-request.js';
import { getSearch } from './get-search.js';
import { getUsage } from './get-usage.js';
import { hasDemoPros } from './has-demo-pros.js';
import { issueKey } from './issue-key.js';
import { leadMigrations } from './migrations.js';
import { listDeliveries } from './list-deliveries.js';
import { markDelivered } from './mark-delivered.js';
import { markFailed } from './mark-failed.js';
import { markRetry } from './mark-retry.js';
import { nextDeliveryDueAt } from './next-delivery-due-at.js';
import { pendingSearchIds } from './pending-search-ids.js';
import { recordRegisterAttempt } from './record-register-attempt.js';
import { refundQuota } from './refund-quota.js';
import { revokeKey } from './revoke-key.js';
import { rotateKey } from './rotate-key.js';
import { upsertPros } from './upsert-pros.js';

const operations = {
  directoryStats,
  hasDemoPros,
  getPro,
  upsertPros,
  findProsInBox,
  recordRegisterAttempt,
  countRegisterAttempts,
  createVerification,
  consumeVerification,
  issueKey,
  findKeyByHash,
  rotateKey,
  revokeKey,
  getUsage,
  consumeQuota,
  refundQuota,
  createSearch,
  completeSearch,
  failSearch,
  getSearch,
  pendingSearchIds,
  findIdempotency,
  createRequest,
  getRequest,
  canAccessRequest,
  listDeliveries,
  claimDueDeliveries,
  markDelivered,
  markRetry,
  markFailed,
  nextDeliveryDueAt,
  eraseRequesterDetails,
};

type Operations = typeof operations;
type Bound = { [K in keyof Operations]: Operations[K] extends (db: PlanDb, ...args: infer A) => infer R ? (...args: A) => R : never };

/** A LeadStore whose connection is at hand (tests and benchmarks look inside). */
export type SqlLeadStore<D extends PlanDb = PlanDb> = LeadStore & { readonly db: D };

function leadStore<D extends PlanDb>(db: D): SqlLeadStore<D> {
  const bound = Object.fromEntries(
    Object.entries(operations).map(([name, op]) => [name, (...args: unknown[]) => (op as (db: D, ...a: unknown[]) => unknown)(db, ...args)]),
  ) as Bound;
  let closing: Promise<void> | undefined;
  return { ...bound, dialect: db.dialect.name, db, close: () => (closing ??= Promise.resolve(db.close())) };
}

export type SqliteLeadStore = SqlLeadStore<SqliteDb>;

/** Opens (creating if needed) and migrates the SQLite lead database. */
export function openSqliteLeadStore(file: string): Promise<SqliteLeadStore> {
  return migrated(new SqliteDb(file));
}

/** Opens the pool and applies the lead migrations (under the advisory lock: safe with many starters). */
export function openPostgresLeadStore(o: PostgresConnectionOptions): Promise<SqlLeadStore<PostgresDb>> {
  return migrated(new PostgresDb({ ...o, applicationName: o.applicationName ?? 'agent-utility:leads' }));
}

async function migrated<D extends PlanDb>(db: D): Promise<SqlLeadStore<D>> {
  try {
    await migrate(db, leadMigrations(db.dialect.name));
  } catch (err) {
    await db.close();
    throw err;
  }
  return leadStore(db);
}
