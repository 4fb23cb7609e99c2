// Lead rows ↔ records, written once: rows come back in the records' shape (src/db/columns.ts), and only
// JSON and booleans, which the two drivers return differently, are decoded through the Dialect.
import { camelColumns, type Raw } from '../../db/columns.js';
import type { Dialect } from '../../db/dialect.js';
import type { DeliveryRecord, Pro, RequestRecord, SearchRecord } from '../types.js';

export type Row = Record<string, unknown>;

export const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** A JSON parameter; PostgreSQL's jsonb cannot hold NUL even escaped, so Dialect.text drops it inside strings too. */
export const jsonParam = (d: Dialect, v: unknown): string => JSON.stringify(v, (_k, val: unknown) => (typeof val === 'string' ? d.text(val) : val));

/** The pros columns, read from table alias `from` when given (a join). */
export const proColumns = (from?: string) =>
  camelColumns(
    'id, external_id, name, services, zip, lat, lng, phone, email, webhook_url, webhook_secret, address, rating, review_count, website, description, is_demo, created_at, updated_at',
    from,
  );
export type ProRow = Raw<Pro, 'services' | 'isDemo'>;
export const toPro = (d: Dialect, r: ProRow): Pro => ({ ...r, services: d.fromJson(r.services), isDemo: d.fromBool(r.isDemo) });

export const SEARCH_COLUMNS = camelColumns(
  'id, account_id, service, category, zip, radius_miles, result_limit AS limit, status, results, meta, error, created_at, completed_at',
);
export type SearchRow = Raw<SearchRecord, 'results' | 'meta'>;
export const toSearch = (d: Dialect, r: SearchRow): SearchRecord => ({ ...r, results: d.fromJson(r.results), meta: d.fromJson(r.meta) });

export const REQUEST_COLUMNS = camelColumns('id, account_id, pro_id, pro_name, category, zip, name, phone, email, notes, consent, is_demo, created_at');
export type RequestRow = Raw<RequestRecord, 'consent' | 'isDemo'>;
export const toRequest = (d: Dialect, r: RequestRow): RequestRecord => ({ ...r, consent: d.fromJson(r.consent), isDemo: d.fromBool(r.isDemo) });

/**
 * A request's notifications are rows of the service's one outbox, webhook_outbox (task migration 013):
 * subject 'lead_request', the address in `url`, the fixed message in `payload` (JSON text on both
 * dialects), the pro's signing secret beside it. A pending row under a lease is being sent right now.
 */
export const LEAD_SUBJECT = 'lead_request';
export const DELIVERY_COLUMNS =
  'id, subject_id, channel, url, signing_secret, payload, status, lease_owner, attempts, max_attempts, next_attempt_at, last_error, delivered_at, created_at';
export interface DeliveryRow {
  id: string;
  subject_id: string;
  channel: string;
  url: string;
  signing_secret: string | null;
  payload: string | null;
  status: string;
  lease_owner: string | null;
  attempts: unknown;
  max_attempts: unknown;
  next_attempt_at: unknown;
  last_error: string | null;
  delivered_at: unknown;
  created_at: unknown;
}
export const toDelivery = (r: DeliveryRow): DeliveryRecord => ({
  id: r.id,
  requestId: r.subject_id,
  channel: r.channel === 'email' ? 'email' : 'webhook',
  target: r.signing_secret === null ? { address: r.url } : { address: r.url, secret: r.signing_secret },
  payload: r.payload === null ? {} : (JSON.parse(r.payload) as Record<string, unknown>),
  status: r.status === 'pending' && r.lease_owner !== null ? 'sending' : (r.status as DeliveryRecord['status']),
  attempts: Number(r.attempts),
  maxAttempts: Number(r.max_attempts),
  nextAttemptAt: Number(r.next_attempt_at),
  lastError: r.last_error,
  deliveredAt: numOrNull(r.delivered_at),
  createdAt: Number(r.created_at),
  // The outbox keeps no update time: the last change that matters is the delivery (or the creation).
  updatedAt: numOrNull(r.delivered_at) ?? Number(r.created_at),
});
