// PostgreSQL adapter of the lead store (pg Pool), so the lead service can run on many nodes sharing one
// database. Same semantics as the SQLite adapter, checked by the same contract suite. Where SQLite relies
// on one writer at a time (BEGIN IMMEDIATE), this adapter makes the races explicit: the quota row is
// locked by an upsert before it is checked, duplicate requests are serialised by an advisory lock on
// (phone, pro, category), and delivery claims take due rows FOR UPDATE SKIP LOCKED so two dispatchers
// never lease the same one. The tables live in the task store's schema (see migrations/postgres).
import type pg from 'pg';
import { migratePostgres } from '../db/migrate.js';
import { createPool, inTransaction, Rollback, type PostgresConnectionOptions, type Queryable } from '../db/postgres-pool.js';
import type { Category } from './categories.js';
import type { BoundingBox } from './geo.js';
import { proIdFor, randomId } from './ids.js';
import { numOrNull, str, strOrNull, type Row } from './row-values.js';
import { postgresMigrations } from './migrations/postgres/index.js';
import type {
  DirectoryStats,
  IdempotencyRecord,
  LeadStore,
  NewRequest,
  QuotaOutcome,
  RegisterAttemptCounts,
  UpsertProsResult,
} from './store.js';
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


/** PostgreSQL text and jsonb cannot hold NUL (SQLite can); it carries no meaning in any lead field, so it is dropped. */
function text(s: string): string;
function text(s: string | null): string | null;
function text(s: string | null): string | null {
  return s === null ? null : s.replace(/\0/g, '');
}

/** JSON for a jsonb parameter (as text: pg would turn a JS array into a PostgreSQL array literal). */
const json = (v: unknown): string => JSON.stringify(v, (_k, val: unknown) => (typeof val === 'string' ? text(val) : val));

function rowToPro(r: Row): Pro {
  return {
    id: str(r.id),
    externalId: str(r.external_id),
    name: str(r.name),
    services: r.services as Category[],
    zip: str(r.zip),
    lat: Number(r.lat),
    lng: Number(r.lng),
    phone: strOrNull(r.phone),
    email: strOrNull(r.email),
    webhookUrl: strOrNull(r.webhook_url),
    webhookSecret: strOrNull(r.webhook_secret),
    address: strOrNull(r.address),
    rating: numOrNull(r.rating),
    reviewCount: numOrNull(r.review_count),
    website: strOrNull(r.website),
    description: strOrNull(r.description),
    isDemo: r.is_demo === true,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

function rowToSearch(r: Row): SearchRecord {
  return {
    id: str(r.id),
    accountId: str(r.account_id),
    service: str(r.service),
    category: str(r.category) as Category,
    zip: str(r.zip),
    radiusMiles: Number(r.radius_miles),
    limit: Number(r.result_limit),
    status: str(r.status) as SearchRecord['status'],
    results: (r.results ?? null) as SearchResultEntry[] | null,
    meta: (r.meta ?? null) as SearchMeta | null,
    error: strOrNull(r.error),
    createdAt: Number(r.created_at),
    completedAt: numOrNull(r.completed_at),
  };
}

function rowToRequest(r: Row): RequestRecord {
  return {
    id: str(r.id),
    accountId: str(r.account_id),
    proId: str(r.pro_id),
    proName: str(r.pro_name),
    category: str(r.category) as Category,
    zip: strOrNull(r.zip),
    name: str(r.name),
    phone: str(r.phone),
    email: strOrNull(r.email),
    notes: str(r.notes),
    consent: r.consent as RequestRecord['consent'],
    isDemo: r.is_demo === true,
    createdAt: Number(r.created_at),
  };
}

function rowToDelivery(r: Row): DeliveryRecord {
  return {
    id: str(r.id),
    requestId: str(r.request_id),
    channel: str(r.channel) as DeliveryRecord['channel'],
    target: r.target as DeliveryRecord['target'],
    payload: r.payload as Record<string, unknown>,
    status: str(r.status) as DeliveryRecord['status'],
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
    nextAttemptAt: Number(r.next_attempt_at),
    lastError: strOrNull(r.last_error),
    deliveredAt: numOrNull(r.delivered_at),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

const PRO_COLUMNS = `id, external_id, name, phone, email, webhook_url, webhook_secret, address, zip, lat, lng, rating,
  review_count, website, description, services, is_demo, created_at, updated_at`;

/** Opens the pool and applies the lead migrations (under the shared advisory lock; safe with many starters). */
export async function openPostgresLeadStore(o: PostgresConnectionOptions): Promise<PostgresLeadStore> {
  const store = new PostgresLeadStore(o);
  try {
    await store.migrate();
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}

export class PostgresLeadStore implements LeadStore {
  readonly dialect = 'postgres' as const;
  readonly schema: string;
  private readonly pool: pg.Pool;
  private closed = false;

  constructor(o: PostgresConnectionOptions) {
    this.schema = o.schema;
    this.pool = createPool({ ...o, applicationName: o.applicationName ?? 'agent-utility:leads' });
  }

  async migrate(): Promise<void> {
    await migratePostgres({ pool: this.pool, schema: this.schema }, { component: 'leads', migrations: postgresMigrations, legacyLedger: 'leads_schema_migrations' });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  private async rows(q: Queryable, sql: string, params: unknown[] = []): Promise<Row[]> {
    return (await q.query<Row>(sql, params)).rows;
  }

  private async one(q: Queryable, sql: string, params: unknown[] = []): Promise<Row | undefined> {
    return (await this.rows(q, sql, params))[0];
  }

  // ---- Directory ----

  async directoryStats(): Promise<DirectoryStats> {
    const r = await this.one(this.pool, 'SELECT (SELECT COUNT(*) FROM pros) AS total, (SELECT COUNT(*) FROM pros WHERE is_demo) AS demo');
    return { total: Number(r?.total ?? 0), demo: Number(r?.demo ?? 0) };
  }

  async hasDemoPros(): Promise<boolean> {
    return (await this.one(this.pool, 'SELECT 1 FROM pros WHERE is_demo LIMIT 1')) !== undefined;
  }

  async getPro(id: string): Promise<Pro | undefined> {
    const r = await this.one(this.pool, 'SELECT * FROM pros WHERE id = $1', [id]);
    return r ? rowToPro(r) : undefined;
  }

  async upsertPros(pros: ProInput[], opts: { replace: boolean; now: number }): Promise<UpsertProsResult> {
    return inTransaction(this.pool, async (tx) => {
      const result: UpsertProsResult = { inserted: 0, updated: 0, removed: 0, demoRemoved: 0 };
      if (pros.some((p) => !p.isDemo)) {
        // Real data arriving ends the demo: the two must never be mixed in one directory.
        result.demoRemoved = (await tx.query('DELETE FROM pros WHERE is_demo')).rowCount ?? 0;
      }
      const seen = new Set<string>();
      for (const p of pros) {
        const id = proIdFor(p.externalId);
        seen.add(id);
        // xmax = 0 only on a freshly inserted row version: tells an insert from an update in one statement.
        const r = await this.one(
          tx,
          `INSERT INTO pros (${PRO_COLUMNS})
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $18)
           ON CONFLICT (external_id) DO UPDATE SET name = EXCLUDED.name, phone = EXCLUDED.phone, email = EXCLUDED.email,
             webhook_url = EXCLUDED.webhook_url, webhook_secret = EXCLUDED.webhook_secret, address = EXCLUDED.address,
             zip = EXCLUDED.zip, lat = EXCLUDED.lat, lng = EXCLUDED.lng, rating = EXCLUDED.rating,
             review_count = EXCLUDED.review_count, website = EXCLUDED.website, description = EXCLUDED.description,
             services = EXCLUDED.services, is_demo = EXCLUDED.is_demo, updated_at = EXCLUDED.updated_at
           RETURNING (xmax = 0) AS inserted`,
          [
            id,
            text(p.externalId),
            text(p.name),
            text(p.phone),
            text(p.email),
            text(p.webhookUrl),
            text(p.webhookSecret),
            text(p.address),
            text(p.zip),
            p.lat,
            p.lng,
            p.rating,
            p.reviewCount,
            text(p.website),
            text(p.description),
            json(p.services),
            p.isDemo,
            opts.now,
          ],
        );
        if (r?.inserted === true) {
          result.inserted++;
        } else {
          await tx.query('DELETE FROM pro_categories WHERE pro_id = $1', [id]);
          result.updated++;
        }
        await tx.query('INSERT INTO pro_categories (category, lat, lng, pro_id) SELECT c, $2, $3, $4 FROM unnest($1::text[]) AS c', [
          [...new Set(p.services)],
          p.lat,
          p.lng,
          id,
        ]);
      }
      if (opts.replace) {
        result.removed = (await tx.query('DELETE FROM pros WHERE NOT (id = ANY($1::text[]))', [[...seen]])).rowCount ?? 0;
      }
      return result;
    });
  }

  async findProsInBox(category: Category, box: BoundingBox): Promise<Pro[]> {
    const rows = await this.rows(
      this.pool,
      `SELECT p.* FROM pro_categories c JOIN pros p ON p.id = c.pro_id
       WHERE c.category = $1 AND c.lat BETWEEN $2 AND $3 AND c.lng BETWEEN $4 AND $5`,
      [category, box.minLat, box.maxLat, box.minLng, box.maxLng],
    );
    return rows.map(rowToPro);
  }

  // ---- Registration and keys ----

  async recordRegisterAttempt(ip: string, emailHash: string, at: number): Promise<void> {
    await this.pool.query('INSERT INTO register_attempts (ip, email_hash, at) VALUES ($1, $2, $3)', [text(ip), emailHash, at]);
    // Old attempts only matter inside the limiter window; a day is far more than any window we use.
    await this.pool.query('DELETE FROM register_attempts WHERE at < $1', [at - 86_400_000]);
  }

  async countRegisterAttempts(ip: string, emailHash: string | null, since: number): Promise<RegisterAttemptCounts> {
    const byIp = await this.one(this.pool, 'SELECT COUNT(*) AS n, MIN(at) AS oldest FROM register_attempts WHERE ip = $1 AND at >= $2', [text(ip), since]);
    const byEmail =
      emailHash === null
        ? 0
        : Number((await this.one(this.pool, 'SELECT COUNT(*) AS n FROM register_attempts WHERE email_hash = $1 AND at >= $2', [emailHash, since]))?.n ?? 0);
    return { byIp: Number(byIp?.n ?? 0), byEmail, oldestByIp: numOrNull(byIp?.oldest) };
  }

  async createVerification(v: { tokenHash: string; email: string; createdAt: number; expiresAt: number }): Promise<void> {
    await this.pool.query('INSERT INTO verifications (token_hash, email, created_at, expires_at) VALUES ($1, $2, $3, $4)', [
      v.tokenHash,
      text(v.email),
      v.createdAt,
      v.expiresAt,
    ]);
  }

  async consumeVerification(tokenHash: string, now: number): Promise<{ email: string } | undefined> {
    // A single conditional UPDATE: two clicks racing cannot both succeed (the second re-checks used_at after the first commits).
    const r = await this.one(
      this.pool,
      'UPDATE verifications SET used_at = $1 WHERE token_hash = $2 AND used_at IS NULL AND expires_at > $1 RETURNING email',
      [now, tokenHash],
    );
    return r ? { email: str(r.email) } : undefined;
  }

  async issueKey(email: string, key: { id: string; hash: string; prefix: string }, now: number): Promise<{ accountId: string }> {
    return inTransaction(this.pool, async (tx) => {
      await tx.query('INSERT INTO accounts (id, email, created_at) VALUES ($1, $2, $3) ON CONFLICT (email) DO NOTHING', [
        randomId('acct', 12),
        text(email),
        now,
      ]);
      // The account row lock serialises concurrent issues for one e-mail, so exactly one key stays active.
      const account = await this.one(tx, 'SELECT id FROM accounts WHERE email = $1 FOR UPDATE', [text(email)]);
      const accountId = str(account?.id);
      await tx.query('UPDATE leads_api_keys SET revoked_at = $1 WHERE account_id = $2 AND revoked_at IS NULL', [now, accountId]);
      await tx.query('INSERT INTO leads_api_keys (id, account_id, key_hash, prefix, created_at) VALUES ($1, $2, $3, $4, $5)', [
        key.id,
        accountId,
        key.hash,
        key.prefix,
        now,
      ]);
      return { accountId };
    });
  }

  async findKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const r = await this.one(
      this.pool,
      `SELECT k.id AS key_id, k.account_id, k.revoked_at, a.email FROM leads_api_keys k JOIN accounts a ON a.id = k.account_id
       WHERE k.key_hash = $1`,
      [hash],
    );
    return r ? { keyId: str(r.key_id), accountId: str(r.account_id), email: str(r.email), revokedAt: numOrNull(r.revoked_at) } : undefined;
  }

  async rotateKey(oldKeyId: string, key: { id: string; hash: string; prefix: string }, now: number): Promise<void> {
    await inTransaction(this.pool, async (tx) => {
      const old = await this.one(tx, 'UPDATE leads_api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL RETURNING account_id', [now, oldKeyId]);
      if (!old) throw new Error('key already revoked');
      await tx.query('INSERT INTO leads_api_keys (id, account_id, key_hash, prefix, created_at) VALUES ($1, $2, $3, $4, $5)', [
        key.id,
        str(old.account_id),
        key.hash,
        key.prefix,
        now,
      ]);
    });
  }

  async revokeKey(keyId: string, now: number): Promise<void> {
    await this.pool.query('UPDATE leads_api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [now, keyId]);
  }

  // ---- Quotas ----

  private async readCategories(q: Queryable, accountId: string, day: string): Promise<string[]> {
    // COLLATE "C": byte order, as SQLite sorts, whatever the database's locale.
    const rows = await this.rows(q, 'SELECT category FROM usage_categories WHERE account_id = $1 AND day = $2 ORDER BY category COLLATE "C"', [accountId, day]);
    return rows.map((c) => str(c.category));
  }

  async getUsage(accountId: string, day: string): Promise<Usage> {
    const r = await this.one(this.pool, 'SELECT searches, requests FROM usage_daily WHERE account_id = $1 AND day = $2', [accountId, day]);
    const categories = await this.readCategories(this.pool, accountId, day);
    return { searches: Number(r?.searches ?? 0), requests: Number(r?.requests ?? 0), categories };
  }

  async consumeQuota(accountId: string, day: string, kind: QuotaKind, category: Category, limits: QuotaLimits): Promise<QuotaOutcome> {
    const column = kind === 'searches' ? 'searches' : 'requests';
    try {
      return await inTransaction(this.pool, async (tx): Promise<QuotaOutcome> => {
        // The no-op DO UPDATE locks the day's row (creating it if needed) and returns its latest committed
        // counts: every other consumer for this account and day waits here until this one commits, so the
        // check below and the increment after it act on numbers nobody else can change meanwhile.
        const locked = await this.one(
          tx,
          `INSERT INTO usage_daily (account_id, day) VALUES ($1, $2)
           ON CONFLICT (account_id, day) DO UPDATE SET day = EXCLUDED.day
           RETURNING searches, requests`,
          [accountId, day],
        );
        const usage: Usage = {
          searches: Number(locked?.searches ?? 0),
          requests: Number(locked?.requests ?? 0),
          categories: await this.readCategories(tx, accountId, day),
        };
        const limit = kind === 'searches' ? limits.searchesPerDay : limits.requestsPerDay;
        // Refusals roll back, so they leave no trace (not even the empty day row), as on SQLite.
        if (usage[kind] >= limit) throw new Rollback<QuotaOutcome>({ ok: false, exceeded: kind, usage });
        if (!usage.categories.includes(category) && usage.categories.length >= limits.categoriesPerDay) {
          throw new Rollback<QuotaOutcome>({ ok: false, exceeded: 'categories', usage });
        }
        const r = await this.one(
          tx,
          `UPDATE usage_daily SET ${column} = ${column} + 1 WHERE account_id = $1 AND day = $2 RETURNING searches, requests`,
          [accountId, day],
        );
        await tx.query('INSERT INTO usage_categories (account_id, day, category) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [accountId, day, category]);
        return {
          ok: true,
          usage: { searches: Number(r?.searches ?? 0), requests: Number(r?.requests ?? 0), categories: await this.readCategories(tx, accountId, day) },
        };
      });
    } catch (err) {
      if (err instanceof Rollback) return err.value as QuotaOutcome;
      throw err;
    }
  }

  async refundQuota(accountId: string, day: string, kind: QuotaKind): Promise<void> {
    const column = kind === 'searches' ? 'searches' : 'requests';
    await this.pool.query(`UPDATE usage_daily SET ${column} = GREATEST(0, ${column} - 1) WHERE account_id = $1 AND day = $2`, [accountId, day]);
  }

  // ---- Searches ----

  async createSearch(s: SearchRecord): Promise<void> {
    await this.pool.query(
      `INSERT INTO searches (id, account_id, service, category, zip, radius_miles, result_limit, status, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [s.id, s.accountId, text(s.service), s.category, text(s.zip), s.radiusMiles, s.limit, s.status, s.createdAt],
    );
  }

  async completeSearch(id: string, results: SearchResultEntry[], meta: SearchMeta, now: number): Promise<void> {
    await this.pool.query("UPDATE searches SET status = 'complete', results = $1, meta = $2, completed_at = $3 WHERE id = $4 AND status = 'pending'", [
      json(results),
      json(meta),
      now,
      id,
    ]);
  }

  async failSearch(id: string, error: string, now: number): Promise<void> {
    await this.pool.query("UPDATE searches SET status = 'failed', error = $1, completed_at = $2 WHERE id = $3 AND status = 'pending'", [text(error), now, id]);
  }

  async getSearch(id: string): Promise<SearchRecord | undefined> {
    const r = await this.one(this.pool, 'SELECT * FROM searches WHERE id = $1', [id]);
    return r ? rowToSearch(r) : undefined;
  }

  async pendingSearchIds(): Promise<string[]> {
    return (await this.rows(this.pool, "SELECT id FROM searches WHERE status = 'pending' ORDER BY created_at")).map((r) => str(r.id));
  }

  // ---- Requests and outbox ----

  async findIdempotency(accountId: string, key: string): Promise<IdempotencyRecord | undefined> {
    const r = await this.one(this.pool, 'SELECT request_id, body_hash FROM leads_idempotency_keys WHERE account_id = $1 AND key = $2', [accountId, text(key)]);
    return r ? { requestId: str(r.request_id), bodyHash: str(r.body_hash) } : undefined;
  }

  async createRequest(n: NewRequest): Promise<{ request: RequestRecord; created: boolean }> {
    const r = n.request;
    return inTransaction(this.pool, async (tx) => {
      // Two identical requests arriving together (on one node or two) would both miss each other's
      // uncommitted row; this transaction-scoped lock makes the second wait and then find the first.
      await tx.query("SELECT pg_advisory_xact_lock(hashtext('agent-utility:lead-dedup'), hashtext($1))", [
        `${r.accountId}\u0001${text(r.phone)}\u0001${r.proId}\u0001${r.category}`,
      ]);
      const dup = await this.one(
        tx,
        `SELECT * FROM requests WHERE account_id = $1 AND phone = $2 AND pro_id = $3 AND category = $4 AND created_at >= $5
         ORDER BY created_at DESC LIMIT 1`,
        [r.accountId, text(r.phone), r.proId, r.category, n.dedupSince],
      );
      if (dup) {
        const existing = rowToRequest(dup);
        if (n.idempotency) await this.insertIdempotency(tx, r.accountId, n.idempotency, existing.id, r.createdAt);
        return { request: existing, created: false };
      }
      await tx.query(
        `INSERT INTO requests (id, account_id, pro_id, pro_name, category, zip, name, phone, email, notes, consent, is_demo, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        [
          r.id,
          r.accountId,
          r.proId,
          text(r.proName),
          r.category,
          text(r.zip),
          text(r.name),
          text(r.phone),
          text(r.email),
          text(r.notes),
          json(r.consent),
          r.isDemo,
          r.createdAt,
        ],
      );
      await tx.query('INSERT INTO request_access (request_id, account_id) VALUES ($1, $2)', [r.id, r.accountId]);
      for (const d of n.deliveries) {
        await tx.query(
          `INSERT INTO deliveries (id, request_id, channel, target, payload, status, attempts, max_attempts, next_attempt_at,
             last_error, delivered_at, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
          [
            d.id,
            d.requestId,
            d.channel,
            json(d.target),
            json(d.payload),
            d.status,
            d.attempts,
            d.maxAttempts,
            d.nextAttemptAt,
            text(d.lastError),
            d.deliveredAt,
            d.createdAt,
            d.updatedAt,
          ],
        );
      }
      if (n.idempotency) await this.insertIdempotency(tx, r.accountId, n.idempotency, r.id, r.createdAt);
      // Returned as stored, so a caller sees the same values a later getRequest would.
      return { request: { ...r, proName: text(r.proName), zip: text(r.zip), name: text(r.name), phone: text(r.phone), email: text(r.email), notes: text(r.notes) }, created: true };
    });
  }

  private async insertIdempotency(q: Queryable, accountId: string, idem: { key: string; bodyHash: string }, requestId: string, now: number): Promise<void> {
    await q.query(
      'INSERT INTO leads_idempotency_keys (account_id, key, body_hash, request_id, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING',
      [accountId, text(idem.key), idem.bodyHash, requestId, now],
    );
  }

  async getRequest(id: string): Promise<RequestRecord | undefined> {
    const r = await this.one(this.pool, 'SELECT * FROM requests WHERE id = $1', [id]);
    return r ? rowToRequest(r) : undefined;
  }

  async canAccessRequest(requestId: string, accountId: string): Promise<boolean> {
    return (await this.one(this.pool, 'SELECT 1 FROM request_access WHERE request_id = $1 AND account_id = $2', [requestId, accountId])) !== undefined;
  }

  async listDeliveries(requestId: string): Promise<DeliveryRecord[]> {
    const rows = await this.rows(this.pool, 'SELECT * FROM deliveries WHERE request_id = $1 ORDER BY channel COLLATE "C", created_at', [requestId]);
    return rows.map(rowToDelivery);
  }

  async claimDueDeliveries(now: number, leaseMs: number, limit: number): Promise<DeliveryRecord[]> {
    // 'sending' rows whose lease lapsed belong to a process that died mid-delivery: take them over.
    // SKIP LOCKED: a row another dispatcher is leasing right now is skipped, not waited for, and a row it
    // has just leased fails the re-checked WHERE — so no delivery is ever handed to two dispatchers.
    const rows = await this.rows(
      this.pool,
      `WITH due AS (
         SELECT * FROM deliveries
         WHERE (status = 'pending' AND next_attempt_at <= $1) OR (status = 'sending' AND lease_until < $1)
         ORDER BY next_attempt_at LIMIT $3
         FOR UPDATE SKIP LOCKED
       ), leased AS (
         UPDATE deliveries d SET status = 'sending', lease_until = $2, updated_at = $1 FROM due WHERE d.id = due.id
       )
       SELECT * FROM due ORDER BY next_attempt_at`,
      [now, now + leaseMs, limit],
    );
    return rows.map((r) => ({ ...rowToDelivery(r), status: 'sending' as const }));
  }

  async markDelivered(id: string, now: number): Promise<void> {
    await this.pool.query(
      "UPDATE deliveries SET status = 'delivered', attempts = attempts + 1, delivered_at = $1, lease_until = NULL, last_error = NULL, updated_at = $1 WHERE id = $2",
      [now, id],
    );
  }

  async markRetry(id: string, attempts: number, nextAttemptAt: number, error: string, now: number): Promise<void> {
    await this.pool.query(
      "UPDATE deliveries SET status = 'pending', attempts = $1, next_attempt_at = $2, last_error = $3, lease_until = NULL, updated_at = $4 WHERE id = $5",
      [attempts, nextAttemptAt, text(error), now, id],
    );
  }

  async markFailed(id: string, attempts: number, error: string, now: number): Promise<void> {
    await this.pool.query("UPDATE deliveries SET status = 'failed', attempts = $1, last_error = $2, lease_until = NULL, updated_at = $3 WHERE id = $4", [
      attempts,
      text(error),
      now,
      id,
    ]);
  }

  async nextDeliveryDueAt(): Promise<number | undefined> {
    const r = await this.one(
      this.pool,
      "SELECT MIN(CASE WHEN status = 'pending' THEN next_attempt_at ELSE lease_until END) AS due FROM deliveries WHERE status IN ('pending', 'sending')",
    );
    return numOrNull(r?.due) ?? undefined;
  }

  async eraseRequesterDetails(before: number): Promise<number> {
    return inTransaction(this.pool, async (tx) => {
      const erased = await this.rows(
        tx,
        `UPDATE requests SET name = '[erased]', phone = '[erased]', email = NULL, notes = '[erased]',
           consent = jsonb_set(consent, '{ip}', 'null'::jsonb), erased_at = $1
         WHERE erased_at IS NULL AND created_at < $2 RETURNING id`,
        [Date.now(), before],
      );
      const ids = erased.map((r) => str(r.id));
      // Finished deliveries no longer need their copy of the message; unfinished ones keep it until they end.
      if (ids.length > 0) {
        await tx.query("UPDATE deliveries SET payload = '{}'::jsonb WHERE request_id = ANY($1::text[]) AND status IN ('delivered', 'failed', 'skipped')", [ids]);
      }
      return ids.length;
    });
  }
}
