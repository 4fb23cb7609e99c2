// Plain records shared by the lead service's store, app and dispatcher.
import type { Category } from './categories.js';

/** A professional as the import provides it (ids and timestamps are the store's business). */
export interface ProInput {
  externalId: string;
  name: string;
  services: Category[];
  zip: string;
  lat: number;
  lng: number;
  phone: string | null;
  email: string | null;
  webhookUrl: string | null;
  webhookSecret: string | null;
  address: string | null;
  rating: number | null;
  reviewCount: number | null;
  website: string | null;
  description: string | null;
  isDemo: boolean;
}

export interface Pro extends ProInput {
  id: string;
  createdAt: number;
  updatedAt: number;
}

export type SearchStatus = 'pending' | 'complete' | 'failed';

export interface SearchResultEntry {
  id: string;
  name: string;
  phone: string | null;
  address: string | null;
  rating: number | null;
  review_count: number | null;
  distance_miles: number;
  website: string | null;
  description: string | null;
  services: Category[];
}

export interface SearchMeta {
  total: number;
  dataset: 'demo' | 'imported';
  service: Category;
  zip: string;
  radius_miles: number;
  limit: number;
}

export interface SearchRecord {
  id: string;
  accountId: string;
  service: string;
  category: Category;
  zip: string;
  radiusMiles: number;
  limit: number;
  status: SearchStatus;
  results: SearchResultEntry[] | null;
  meta: SearchMeta | null;
  error: string | null;
  createdAt: number;
  completedAt: number | null;
}

export interface Consent {
  /** The statement the requester agreed to, as recorded. */
  text: string;
  given_at: string;
  /** Who relayed it: the API account that submitted the request. */
  submitted_by: string;
  ip: string | null;
}

export interface RequestRecord {
  id: string;
  accountId: string;
  proId: string;
  proName: string;
  category: Category;
  zip: string | null;
  name: string;
  phone: string;
  email: string | null;
  notes: string;
  consent: Consent;
  isDemo: boolean;
  createdAt: number;
}

export type DeliveryChannel = 'email' | 'webhook';
export type DeliveryStatus = 'pending' | 'sending' | 'delivered' | 'failed' | 'skipped';

export interface DeliveryTarget {
  /** E-mail address, or webhook URL. */
  address: string;
  /** Webhook signing secret (webhook only). */
  secret?: string;
}

export interface DeliveryRecord {
  id: string;
  requestId: string;
  channel: DeliveryChannel;
  target: DeliveryTarget;
  /** The message: for e-mail {subject, text}; for a webhook the JSON event. */
  payload: Record<string, unknown>;
  status: DeliveryStatus;
  attempts: number;
  maxAttempts: number;
  nextAttemptAt: number;
  lastError: string | null;
  deliveredAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface ApiKeyRecord {
  keyId: string;
  accountId: string;
  email: string;
  revokedAt: number | null;
}

export type QuotaKind = 'searches' | 'requests';

export interface QuotaLimits {
  searchesPerDay: number;
  requestsPerDay: number;
  categoriesPerDay: number;
}

export interface Usage {
  searches: number;
  requests: number;
  categories: string[];
}
