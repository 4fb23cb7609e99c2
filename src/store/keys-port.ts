// Prepaid API keys and their credit ledger (every balance change is a ledger row).

export interface ApiKeyRow {
  id: string;
  prefix: string;
  label: string | null;
  balanceMicros: number;
  createdAt: number;
  revokedAt: number | null;
}

/** A key to create: its row's fields, the hash of its secret, and the time (the opening balance is granted through the ledger). */
export interface NewApiKey extends Pick<ApiKeyRow, 'id' | 'prefix' | 'label' | 'balanceMicros'> {
  hash: string;
  now: number;
}

export interface KeyStore {
  createKey(key: NewApiKey): Promise<ApiKeyRow>;
  findKeyByHash(hash: string): Promise<ApiKeyRow | null>;
  /** By id or by displayed prefix (the oldest key, should prefixes collide). */
  findKey(idOrPrefix: string): Promise<ApiKeyRow | null>;
  listKeys(): Promise<ApiKeyRow[]>;
  creditKey(id: string, micros: number, reason: string, now: number): Promise<ApiKeyRow | null>;
  revokeKey(id: string, now: number): Promise<ApiKeyRow | null>;
}
