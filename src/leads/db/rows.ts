// Lead rows ↔ records, written once: JSON and booleans come back differently from the two drivers, and the
// Dialect says how (fromJson, fromBool).
import type { Dialect } from '../../db/dialect.js';
import type { Category } from '../categories.js';
import type { DeliveryRecord, Pro, RequestRecord, SearchRecord } from '../types.js';

export type Row = Record<string, unknown>;

export const str = (v: unknown): string => String(v);
export const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
export const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** A JSON parameter; PostgreSQL's jsonb cannot hold NUL even escaped, so Dialect.text drops it inside strings too. */
export const jsonParam = (d: Dialect, v: unknown): string => JSON.stringify(v, (_k, val: unknown) => (typeof val === 'string' ? d.text(val) : val));

export function rowToPro(d: Dialect, r: Row): Pro {
  return {
    id: str(r.id),
    externalId: str(r.external_id),
    name: str(r.name),
    services: d.fromJson<Category[]>(r.services),
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
    isDemo: d.fromBool(r.is_demo),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

export function rowToSearch(d: Dialect, r: Row): SearchRecord {
  return {
    id: str(r.id),
    accountId: str(r.account_id),
    service: str(r.service),
    category: str(r.category) as Category,
    zip: str(r.zip),
    radiusMiles: Number(r.radius_miles),
    limit: Number(r.result_limit),
    status: str(r.status) as SearchRecord['status'],
    results: d.fromJson<SearchRecord['results']>(r.results),
    meta: d.fromJson<SearchRecord['meta']>(r.meta),
    error: strOrNull(r.error),
    createdAt: Number(r.created_at),
    completedAt: numOrNull(r.completed_at),
  };
}

export function rowToRequest(d: Dialect, r: Row): RequestRecord {
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
    consent: d.fromJson<RequestRecord['consent']>(r.consent),
    isDemo: d.fromBool(r.is_demo),
    createdAt: Number(r.created_at),
  };
}

export function rowToDelivery(d: Dialect, r: Row): DeliveryRecord {
  return {
    id: str(r.id),
    requestId: str(r.request_id),
    channel: str(r.channel) as DeliveryRecord['channel'],
    target: d.fromJson<DeliveryRecord['target']>(r.target),
    payload: d.fromJson<Record<string, unknown>>(r.payload),
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
