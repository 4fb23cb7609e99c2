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

export const DELIVERY_COLUMNS = camelColumns(
  'id, request_id, channel, target, payload, status, attempts, max_attempts, next_attempt_at, last_error, delivered_at, created_at, updated_at',
);
export type DeliveryRow = Raw<DeliveryRecord, 'target' | 'payload'>;
export const toDelivery = (d: Dialect, r: DeliveryRow): DeliveryRecord => ({ ...r, target: d.fromJson(r.target), payload: d.fromJson(r.payload) });
