// SQLite adapter of the lead store (better-sqlite3, WAL). All of the lead service's SQL for SQLite lives
// here; operations that must be atomic run inside one db.transaction. The methods are async only to share
// the port with the PostgreSQL adapter (postgres-store.ts).
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Category } from './categories.js';
import type { BoundingBox } from './geo.js';
import { proIdFor, randomId } from './ids.js';
import { numOrNull, str, strOrNull, type Row } from './row-values.js';
import { sqliteMigrations } from './migrations/sqlite/index.js';
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


function rowToPro(r: Row): Pro {
  return {
    id: str(r.id),
    externalId: str(r.external_id),
    name: str(r.name),
    services: JSON.parse(str(r.services)) as Category[],
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
    isDemo: Number(r.is_demo) === 1,
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
    results: r.results ? (JSON.parse(str(r.results)) as SearchResultEntry[]) : null,
    meta: r.meta ? (JSON.parse(str(r.meta)) as SearchMeta) : null,
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
    consent: JSON.parse(str(r.consent)) as RequestRecord['consent'],
    isDemo: Number(r.is_demo) === 1,
    createdAt: Number(r.created_at),
  };
}

function rowToDelivery(r: Row): DeliveryRecord {
  return {
    id: str(r.id),
    requestId: str(r.request_id),
    channel: str(r.channel) as DeliveryRecord['channel'],
    target: JSON.parse(str(r.target)) as DeliveryRecord['target'],
    payload: JSON.parse(str(r.payload)) as Record<string, unknown>,
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

export function openSqliteLeadStore(file: string): SqliteLeadStore {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return new SqliteLeadStore(db);
}

function migrate(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS lead_schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
  const applied = new Set((db.prepare('SELECT version FROM lead_schema_migrations').all() as Row[]).map((r) => Number(r.version)));
  for (const m of sqliteMigrations) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO lead_schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(m.version, m.name, Date.now());
    }).immediate();
  }
}

export class SqliteLeadStore implements LeadStore {
  readonly dialect = 'sqlite' as const;
  private readonly stmts;

  constructor(readonly db: Database.Database) {
    this.stmts = {
      proById: db.prepare('SELECT * FROM pros WHERE id = ?'),
      proIdByExternal: db.prepare('SELECT id FROM pros WHERE external_id = ?'),
      insertPro: db.prepare(
        `INSERT INTO pros (id, external_id, name, phone, email, webhook_url, webhook_secret, address, zip, lat, lng, rating,
           review_count, website, description, services, is_demo, created_at, updated_at)
         VALUES (@id, @external_id, @name, @phone, @email, @webhook_url, @webhook_secret, @address, @zip, @lat, @lng, @rating,
           @review_count, @website, @description, @services, @is_demo, @now, @now)`,
      ),
      updatePro: db.prepare(
        `UPDATE pros SET name = @name, phone = @phone, email = @email, webhook_url = @webhook_url, webhook_secret = @webhook_secret,
           address = @address, zip = @zip, lat = @lat, lng = @lng, rating = @rating, review_count = @review_count,
           website = @website, description = @description, services = @services, is_demo = @is_demo, updated_at = @now
         WHERE id = @id`,
      ),
      deleteProCategories: db.prepare('DELETE FROM pro_categories WHERE pro_id = ?'),
      insertProCategory: db.prepare('INSERT INTO pro_categories (category, lat, lng, pro_id) VALUES (?, ?, ?, ?)'),
      // INDEXED BY pins the plan to the geo index: (category, lat) range, lng filtered inside the index.
      prosInBox: db.prepare(
        `SELECT p.* FROM pro_categories c INDEXED BY pro_categories_geo JOIN pros p ON p.id = c.pro_id
         WHERE c.category = ? AND c.lat BETWEEN ? AND ? AND c.lng BETWEEN ? AND ?`,
      ),
      keyByHash: db.prepare(
        `SELECT k.id AS key_id, k.account_id, k.revoked_at, a.email FROM api_keys k JOIN accounts a ON a.id = k.account_id
         WHERE k.key_hash = ?`,
      ),
      usage: db.prepare('SELECT searches, requests FROM usage_daily WHERE account_id = ? AND day = ?'),
      usageCategories: db.prepare('SELECT category FROM usage_categories WHERE account_id = ? AND day = ? ORDER BY category'),
      searchById: db.prepare('SELECT * FROM searches WHERE id = ?'),
      requestById: db.prepare('SELECT * FROM requests WHERE id = ?'),
      deliveriesByRequest: db.prepare('SELECT * FROM deliveries WHERE request_id = ? ORDER BY channel, created_at'),
    };
  }

  async close(): Promise<void> {
    this.db.close();
  }

  // ---- Directory ----

  async directoryStats(): Promise<DirectoryStats> {
    // Two counts rather than SUM(is_demo): each is answered from an index instead of reading every row.
    const total = this.db.prepare('SELECT COUNT(*) AS n FROM pros').get() as Row;
    const demo = this.db.prepare('SELECT COUNT(*) AS n FROM pros WHERE is_demo = 1').get() as Row;
    return { total: Number(total.n), demo: Number(demo.n) };
  }

  async hasDemoPros(): Promise<boolean> {
    return this.db.prepare('SELECT 1 FROM pros WHERE is_demo = 1 LIMIT 1').get() !== undefined;
  }

  async getPro(id: string): Promise<Pro | undefined> {
    const r = this.stmts.proById.get(id) as Row | undefined;
    return r ? rowToPro(r) : undefined;
  }

  async upsertPros(pros: ProInput[], opts: { replace: boolean; now: number }): Promise<UpsertProsResult> {
    return this.db
      .transaction((): UpsertProsResult => {
        const result: UpsertProsResult = { inserted: 0, updated: 0, removed: 0, demoRemoved: 0 };
        const incomingReal = pros.some((p) => !p.isDemo);
        if (incomingReal) {
          // Real data arriving ends the demo: the two must never be mixed in one directory.
          result.demoRemoved = this.db.prepare('DELETE FROM pros WHERE is_demo = 1').run().changes;
        }
        const seen = new Set<string>();
        for (const p of pros) {
          const id = proIdFor(p.externalId);
          seen.add(id);
          const params = {
            id,
            external_id: p.externalId,
            name: p.name,
            phone: p.phone,
            email: p.email,
            webhook_url: p.webhookUrl,
            webhook_secret: p.webhookSecret,
            address: p.address,
            zip: p.zip,
            lat: p.lat,
            lng: p.lng,
            rating: p.rating,
            review_count: p.reviewCount,
            website: p.website,
            description: p.description,
            services: JSON.stringify(p.services),
            is_demo: p.isDemo ? 1 : 0,
            now: opts.now,
          };
          if (this.stmts.proIdByExternal.get(p.externalId)) {
            this.stmts.updatePro.run(params);
            this.stmts.deleteProCategories.run(id);
            result.updated++;
          } else {
            this.stmts.insertPro.run(params);
            result.inserted++;
          }
          for (const c of new Set(p.services)) this.stmts.insertProCategory.run(c, p.lat, p.lng, id);
        }
        if (opts.replace) {
          const all = this.db.prepare('SELECT id FROM pros').all() as Row[];
          const del = this.db.prepare('DELETE FROM pros WHERE id = ?');
          for (const r of all) {
            if (!seen.has(str(r.id))) result.removed += del.run(str(r.id)).changes;
          }
        }
        return result;
      })
      .immediate();
  }

  async findProsInBox(category: Category, box: BoundingBox): Promise<Pro[]> {
    return (this.stmts.prosInBox.all(category, box.minLat, box.maxLat, box.minLng, box.maxLng) as Row[]).map(rowToPro);
  }

  // ---- Registration and keys ----

  async recordRegisterAttempt(ip: string, emailHash: string, at: number): Promise<void> {
    this.db.prepare('INSERT INTO register_attempts (ip, email_hash, at) VALUES (?, ?, ?)').run(ip, emailHash, at);
    // Old attempts only matter inside the limiter window; a day is far more than any window we use.
    this.db.prepare('DELETE FROM register_attempts WHERE at < ?').run(at - 86_400_000);
  }

  async countRegisterAttempts(ip: string, emailHash: string | null, since: number): Promise<RegisterAttemptCounts> {
    const byIp = this.db.prepare('SELECT COUNT(*) AS n, MIN(at) AS oldest FROM register_attempts WHERE ip = ? AND at >= ?').get(ip, since) as Row;
    const byEmail =
      emailHash === null
        ? 0
        : Number((this.db.prepare('SELECT COUNT(*) AS n FROM register_attempts WHERE email_hash = ? AND at >= ?').get(emailHash, since) as Row).n);
    return { byIp: Number(byIp.n), byEmail, oldestByIp: numOrNull(byIp.oldest) };
  }

  async createVerification(v: { tokenHash: string; email: string; createdAt: number; expiresAt: number }): Promise<void> {
    this.db
      .prepare('INSERT INTO verifications (token_hash, email, created_at, expires_at) VALUES (?, ?, ?, ?)')
      .run(v.tokenHash, v.email, v.createdAt, v.expiresAt);
  }

  async consumeVerification(tokenHash: string, now: number): Promise<{ email: string } | undefined> {
    // A single conditional UPDATE: two clicks racing cannot both succeed.
    const r = this.db
      .prepare('UPDATE verifications SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING email')
      .get(now, tokenHash, now) as Row | undefined;
    return r ? { email: str(r.email) } : undefined;
  }

  async issueKey(email: string, key: { id: string; hash: string; prefix: string }, now: number): Promise<{ accountId: string }> {
    return this.db
      .transaction(() => {
        let account = this.db.prepare('SELECT id FROM accounts WHERE email = ?').get(email) as Row | undefined;
        if (!account) {
          const id = randomId('acct', 12);
          this.db.prepare('INSERT INTO accounts (id, email, created_at) VALUES (?, ?, ?)').run(id, email, now);
          account = { id };
        }
        const accountId = str(account.id);
        this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE account_id = ? AND revoked_at IS NULL').run(now, accountId);
        this.db
          .prepare('INSERT INTO api_keys (id, account_id, key_hash, prefix, created_at) VALUES (?, ?, ?, ?, ?)')
          .run(key.id, accountId, key.hash, key.prefix, now);
        return { accountId };
      })
      .immediate();
  }

  async findKeyByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const r = this.stmts.keyByHash.get(hash) as Row | undefined;
    return r ? { keyId: str(r.key_id), accountId: str(r.account_id), email: str(r.email), revokedAt: numOrNull(r.revoked_at) } : undefined;
  }

  async rotateKey(oldKeyId: string, key: { id: string; hash: string; prefix: string }, now: number): Promise<void> {
    this.db
      .transaction(() => {
        const old = this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL RETURNING account_id').get(now, oldKeyId) as
          | Row
          | undefined;
        if (!old) throw new Error('key already revoked');
        this.db
          .prepare('INSERT INTO api_keys (id, account_id, key_hash, prefix, created_at) VALUES (?, ?, ?, ?, ?)')
          .run(key.id, str(old.account_id), key.hash, key.prefix, now);
      })
      .immediate();
  }

  async revokeKey(keyId: string, now: number): Promise<void> {
    this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, keyId);
  }

  // ---- Quotas ----

  private readUsage(accountId: string, day: string): Usage {
    const r = this.stmts.usage.get(accountId, day) as Row | undefined;
    const categories = (this.stmts.usageCategories.all(accountId, day) as Row[]).map((c) => str(c.category));
    return { searches: Number(r?.searches ?? 0), requests: Number(r?.requests ?? 0), categories };
  }

  async getUsage(accountId: string, day: string): Promise<Usage> {
    return this.readUsage(accountId, day);
  }

  async consumeQuota(accountId: string, day: string, kind: QuotaKind, category: Category, limits: QuotaLimits): Promise<QuotaOutcome> {
    return this.db
      .transaction((): QuotaOutcome => {
        const usage = this.readUsage(accountId, day);
        const limit = kind === 'searches' ? limits.searchesPerDay : limits.requestsPerDay;
        if (usage[kind] >= limit) return { ok: false, exceeded: kind, usage };
        if (!usage.categories.includes(category) && usage.categories.length >= limits.categoriesPerDay) {
          return { ok: false, exceeded: 'categories', usage };
        }
        this.db
          .prepare(
            `INSERT INTO usage_daily (account_id, day, ${kind}) VALUES (?, ?, 1)
             ON CONFLICT (account_id, day) DO UPDATE SET ${kind} = ${kind} + 1`,
          )
          .run(accountId, day);
        this.db.prepare('INSERT OR IGNORE INTO usage_categories (account_id, day, category) VALUES (?, ?, ?)').run(accountId, day, category);
        return { ok: true, usage: this.readUsage(accountId, day) };
      })
      .immediate();
  }

  async refundQuota(accountId: string, day: string, kind: QuotaKind): Promise<void> {
    this.db.prepare(`UPDATE usage_daily SET ${kind} = MAX(0, ${kind} - 1) WHERE account_id = ? AND day = ?`).run(accountId, day);
  }

  // ---- Searches ----

  async createSearch(s: SearchRecord): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO searches (id, account_id, service, category, zip, radius_miles, result_limit, status, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(s.id, s.accountId, s.service, s.category, s.zip, s.radiusMiles, s.limit, s.status, s.createdAt);
  }

  async completeSearch(id: string, results: SearchResultEntry[], meta: SearchMeta, now: number): Promise<void> {
    this.db
      .prepare("UPDATE searches SET status = 'complete', results = ?, meta = ?, completed_at = ? WHERE id = ? AND status = 'pending'")
      .run(JSON.stringify(results), JSON.stringify(meta), now, id);
  }

  async failSearch(id: string, error: string, now: number): Promise<void> {
    this.db.prepare("UPDATE searches SET status = 'failed', error = ?, completed_at = ? WHERE id = ? AND status = 'pending'").run(error, now, id);
  }

  async getSearch(id: string): Promise<SearchRecord | undefined> {
    const r = this.stmts.searchById.get(id) as Row | undefined;
    return r ? rowToSearch(r) : undefined;
  }

  async pendingSearchIds(): Promise<string[]> {
    return (this.db.prepare("SELECT id FROM searches WHERE status = 'pending' ORDER BY created_at").all() as Row[]).map((r) => str(r.id));
  }

  // ---- Requests and outbox ----

  async findIdempotency(accountId: string, key: string): Promise<IdempotencyRecord | undefined> {
    const r = this.db.prepare('SELECT request_id, body_hash FROM idempotency_keys WHERE account_id = ? AND key = ?').get(accountId, key) as Row | undefined;
    return r ? { requestId: str(r.request_id), bodyHash: str(r.body_hash) } : undefined;
  }

  async createRequest(n: NewRequest): Promise<{ request: RequestRecord; created: boolean }> {
    const r = n.request;
    return this.db
      .transaction(() => {
        const dup = this.db
          .prepare(
            `SELECT * FROM requests WHERE account_id = ? AND phone = ? AND pro_id = ? AND category = ? AND created_at >= ?
             ORDER BY created_at DESC LIMIT 1`,
          )
          .get(r.accountId, r.phone, r.proId, r.category, n.dedupSince) as Row | undefined;
        if (dup) {
          const existing = rowToRequest(dup);
          if (n.idempotency) this.insertIdempotency(r.accountId, n.idempotency, existing.id, r.createdAt);
          return { request: existing, created: false };
        }
        this.db
          .prepare(
            `INSERT INTO requests (id, account_id, pro_id, pro_name, category, zip, name, phone, email, notes, consent, is_demo, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(r.id, r.accountId, r.proId, r.proName, r.category, r.zip, r.name, r.phone, r.email, r.notes, JSON.stringify(r.consent), r.isDemo ? 1 : 0, r.createdAt);
        this.db.prepare('INSERT INTO request_access (request_id, account_id) VALUES (?, ?)').run(r.id, r.accountId);
        const insertDelivery = this.db.prepare(
          `INSERT INTO deliveries (id, request_id, channel, target, payload, status, attempts, max_attempts, next_attempt_at,
             last_error, delivered_at, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        );
        for (const d of n.deliveries) {
          insertDelivery.run(
            d.id,
            d.requestId,
            d.channel,
            JSON.stringify(d.target),
            JSON.stringify(d.payload),
            d.status,
            d.attempts,
            d.maxAttempts,
            d.nextAttemptAt,
            d.lastError,
            d.deliveredAt,
            d.createdAt,
            d.updatedAt,
          );
        }
        if (n.idempotency) this.insertIdempotency(r.accountId, n.idempotency, r.id, r.createdAt);
        return { request: r, created: true };
      })
      .immediate();
  }

  private insertIdempotency(accountId: string, idem: { key: string; bodyHash: string }, requestId: string, now: number): void {
    this.db
      .prepare('INSERT OR IGNORE INTO idempotency_keys (account_id, key, body_hash, request_id, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(accountId, idem.key, idem.bodyHash, requestId, now);
  }

  async getRequest(id: string): Promise<RequestRecord | undefined> {
    const r = this.stmts.requestById.get(id) as Row | undefined;
    return r ? rowToRequest(r) : undefined;
  }

  async canAccessRequest(requestId: string, accountId: string): Promise<boolean> {
    return this.db.prepare('SELECT 1 FROM request_access WHERE request_id = ? AND account_id = ?').get(requestId, accountId) !== undefined;
  }

  async listDeliveries(requestId: string): Promise<DeliveryRecord[]> {
    return (this.stmts.deliveriesByRequest.all(requestId) as Row[]).map(rowToDelivery);
  }

  async claimDueDeliveries(now: number, leaseMs: number, limit: number): Promise<DeliveryRecord[]> {
    return this.db
      .transaction(() => {
        // 'sending' rows whose lease lapsed belong to a process that died mid-delivery: take them over.
        const rows = this.db
          .prepare(
            `SELECT * FROM deliveries
             WHERE (status = 'pending' AND next_attempt_at <= ?) OR (status = 'sending' AND lease_until < ?)
             ORDER BY next_attempt_at LIMIT ?`,
          )
          .all(now, now, limit) as Row[];
        const lease = this.db.prepare("UPDATE deliveries SET status = 'sending', lease_until = ?, updated_at = ? WHERE id = ?");
        for (const r of rows) lease.run(now + leaseMs, now, str(r.id));
        return rows.map((r) => ({ ...rowToDelivery(r), status: 'sending' as const }));
      })
      .immediate();
  }

  async markDelivered(id: string, now: number): Promise<void> {
    this.db
      .prepare("UPDATE deliveries SET status = 'delivered', attempts = attempts + 1, delivered_at = ?, lease_until = NULL, last_error = NULL, updated_at = ? WHERE id = ?")
      .run(now, now, id);
  }

  async markRetry(id: string, attempts: number, nextAttemptAt: number, error: string, now: number): Promise<void> {
    this.db
      .prepare("UPDATE deliveries SET status = 'pending', attempts = ?, next_attempt_at = ?, last_error = ?, lease_until = NULL, updated_at = ? WHERE id = ?")
      .run(attempts, nextAttemptAt, error, now, id);
  }

  async markFailed(id: string, attempts: number, error: string, now: number): Promise<void> {
    this.db
      .prepare("UPDATE deliveries SET status = 'failed', attempts = ?, last_error = ?, lease_until = NULL, updated_at = ? WHERE id = ?")
      .run(attempts, error, now, id);
  }

  async nextDeliveryDueAt(): Promise<number | undefined> {
    const r = this.db
      .prepare("SELECT MIN(CASE WHEN status = 'pending' THEN next_attempt_at ELSE lease_until END) AS due FROM deliveries WHERE status IN ('pending', 'sending')")
      .get() as Row;
    return numOrNull(r.due) ?? undefined;
  }

  async eraseRequesterDetails(before: number): Promise<number> {
    return this.db
      .transaction(() => {
        const ids = (this.db.prepare('SELECT id FROM requests WHERE erased_at IS NULL AND created_at < ?').all(before) as Row[]).map((r) => str(r.id));
        const eraseRequest = this.db.prepare(
          "UPDATE requests SET name = '[erased]', phone = '[erased]', email = NULL, notes = '[erased]', consent = json_set(consent, '$.ip', NULL), erased_at = ? WHERE id = ?",
        );
        // Finished deliveries no longer need their copy of the message; unfinished ones keep it until they end.
        const erasePayload = this.db.prepare("UPDATE deliveries SET payload = '{}' WHERE request_id = ? AND status IN ('delivered', 'failed', 'skipped')");
        const now = Date.now();
        for (const id of ids) {
          eraseRequest.run(now, id);
          erasePayload.run(id);
        }
        return ids.length;
      })
      .immediate();
  }
}
