// The lead service's storage port. Every method is one whole operation (any transaction lives inside it);
// each is one file in src/leads/db/, written once for SQLite and PostgreSQL. SQL lives only there.
import type { Category } from './categories.js';
import type { BoundingBox } from './geo.js';
import type {
  ApiKeyRecord,
  DeliveryRecord,
  Pro,
  ProInput,
  QuotaKind,
  QuotaLimits,
  RequestRecord,
  SearchMeta,
  SearchRecord,
  SearchResultEntry,
  Usage,
} from './types.js';

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

export interface LeadStore {
  readonly dialect: 'sqlite' | 'postgres';
  close(): Promise<void>;

  // Directory
  directoryStats(): Promise<DirectoryStats>;
  /** True when the directory holds demo professionals (cheap: answered by a partial index). */
  hasDemoPros(): Promise<boolean>;
  getPro(id: string): Promise<Pro | undefined>;
  /** Insert or update on external id, in one transaction. `replace`: delete every pro not in `pros`. */
  upsertPros(pros: ProInput[], opts: { replace: boolean; now: number }): Promise<UpsertProsResult>;
  /** Pros offering `category` whose location lies in the box (the indexed prefilter of a radius search). */
  findProsInBox(category: Category, box: BoundingBox): Promise<Pro[]>;

  // Registration and keys
  recordRegisterAttempt(ip: string, emailHash: string, at: number): Promise<void>;
  countRegisterAttempts(ip: string, emailHash: string | null, since: number): Promise<RegisterAttemptCounts>;
  createVerification(v: { tokenHash: string; email: string; createdAt: number; expiresAt: number }): Promise<void>;
  /** Marks the token used and returns its e-mail; undefined when unknown, used or expired (single use). */
  consumeVerification(tokenHash: string, now: number): Promise<{ email: string } | undefined>;
  /** Creates the account if needed, revokes its active keys and stores the new key hash (one active key per account). */
  issueKey(email: string, key: { id: string; hash: string; prefix: string }, now: number): Promise<{ accountId: string }>;
  findKeyByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  /** Revokes `oldKeyId` and stores the new key for the same account, atomically. */
  rotateKey(oldKeyId: string, key: { id: string; hash: string; prefix: string }, now: number): Promise<void>;
  revokeKey(keyId: string, now: number): Promise<void>;

  // Quotas (per account and UTC day "YYYY-MM-DD")
  getUsage(accountId: string, day: string): Promise<Usage>;
  /** Counts one use of `kind` in `category` unless a limit is spent; atomic. */
  consumeQuota(accountId: string, day: string, kind: QuotaKind, category: Category, limits: QuotaLimits): Promise<QuotaOutcome>;
  refundQuota(accountId: string, day: string, kind: QuotaKind): Promise<void>;

  // Searches
  createSearch(s: SearchRecord): Promise<void>;
  completeSearch(id: string, results: SearchResultEntry[], meta: SearchMeta, now: number): Promise<void>;
  failSearch(id: string, error: string, now: number): Promise<void>;
  getSearch(id: string): Promise<SearchRecord | undefined>;
  pendingSearchIds(): Promise<string[]>;

  // Requests and their notification outbox
  findIdempotency(accountId: string, key: string): Promise<IdempotencyRecord | undefined>;
  /**
   * Writes the request, its deliveries (the outbox) and the idempotency record in ONE transaction, so a crash
   * can never leave a request without its notifications. When a duplicate exists (same account, phone,
   * pro and category since `dedupSince`) nothing new is written and the existing request is returned. Only
   * the account's own requests count: matching another account's would tell it who contacted whom.
   */
  createRequest(r: NewRequest): Promise<{ request: RequestRecord; created: boolean }>;
  getRequest(id: string): Promise<RequestRecord | undefined>;
  canAccessRequest(requestId: string, accountId: string): Promise<boolean>;
  listDeliveries(requestId: string): Promise<DeliveryRecord[]>;
  /** Leases up to `limit` deliveries that are due (or whose lease lapsed after a crash) and returns them. */
  claimDueDeliveries(now: number, leaseMs: number, limit: number): Promise<DeliveryRecord[]>;
  markDelivered(id: string, now: number): Promise<void>;
  markRetry(id: string, attempts: number, nextAttemptAt: number, error: string, now: number): Promise<void>;
  markFailed(id: string, attempts: number, error: string, now: number): Promise<void>;
  /** Earliest time a pending delivery becomes due, if any. */
  nextDeliveryDueAt(): Promise<number | undefined>;
  /** Erases requester details of requests older than `before` (data minimisation). Returns how many. */
  eraseRequesterDetails(before: number): Promise<number>;
}
