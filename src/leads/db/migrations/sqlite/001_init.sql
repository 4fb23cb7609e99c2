-- Lead service schema, version 1 (SQLite), as the first release wrote it (002 brings it to the PostgreSQL names).
-- Times are integer milliseconds since the epoch.

CREATE TABLE pros (
  id TEXT PRIMARY KEY,
  external_id TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  phone TEXT,
  email TEXT,
  webhook_url TEXT,
  webhook_secret TEXT,
  address TEXT,
  zip TEXT NOT NULL,
  lat REAL NOT NULL,
  lng REAL NOT NULL,
  rating REAL,
  review_count INTEGER,
  website TEXT,
  description TEXT,
  services TEXT NOT NULL,
  is_demo INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX pros_demo ON pros (is_demo) WHERE is_demo = 1;

-- One row per (pro, category) with the location copied in: a radius search is a range scan of
-- (category, lat) with lng checked inside the index, so only pros in the bounding box are read.
CREATE TABLE pro_categories (
  category TEXT NOT NULL,
  lat REAL NOT NULL,
  lng REAL NOT NULL,
  pro_id TEXT NOT NULL REFERENCES pros(id) ON DELETE CASCADE,
  PRIMARY KEY (pro_id, category)
);
CREATE INDEX pro_categories_geo ON pro_categories (category, lat, lng, pro_id);

CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id),
  key_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE INDEX api_keys_account ON api_keys (account_id);

CREATE TABLE verifications (
  token_hash TEXT PRIMARY KEY,
  email TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);

CREATE TABLE register_attempts (
  ip TEXT NOT NULL,
  email_hash TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX register_attempts_ip ON register_attempts (ip, at);
CREATE INDEX register_attempts_email ON register_attempts (email_hash, at);

CREATE TABLE usage_daily (
  account_id TEXT NOT NULL,
  day TEXT NOT NULL,
  searches INTEGER NOT NULL DEFAULT 0,
  requests INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, day)
);

CREATE TABLE usage_categories (
  account_id TEXT NOT NULL,
  day TEXT NOT NULL,
  category TEXT NOT NULL,
  PRIMARY KEY (account_id, day, category)
);

CREATE TABLE searches (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  service TEXT NOT NULL,
  category TEXT NOT NULL,
  zip TEXT NOT NULL,
  radius_miles REAL NOT NULL,
  result_limit INTEGER NOT NULL,
  status TEXT NOT NULL,
  results TEXT,
  meta TEXT,
  error TEXT,
  created_at INTEGER NOT NULL,
  completed_at INTEGER
);
CREATE INDEX searches_pending ON searches (status) WHERE status = 'pending';

CREATE TABLE requests (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL,
  pro_id TEXT NOT NULL,
  pro_name TEXT NOT NULL,
  category TEXT NOT NULL,
  zip TEXT,
  name TEXT NOT NULL,
  phone TEXT NOT NULL,
  email TEXT,
  notes TEXT NOT NULL,
  consent TEXT NOT NULL,
  is_demo INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  erased_at INTEGER
);
CREATE INDEX requests_dedup ON requests (phone, pro_id, category, created_at);
CREATE INDEX requests_created ON requests (created_at) WHERE erased_at IS NULL;

CREATE TABLE request_access (
  request_id TEXT NOT NULL,
  account_id TEXT NOT NULL,
  PRIMARY KEY (request_id, account_id)
);

CREATE TABLE idempotency_keys (
  account_id TEXT NOT NULL,
  key TEXT NOT NULL,
  body_hash TEXT NOT NULL,
  request_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (account_id, key)
);

-- The notification outbox: written in the same transaction as the request, drained by the dispatcher.
CREATE TABLE deliveries (
  id TEXT PRIMARY KEY,
  request_id TEXT NOT NULL,
  channel TEXT NOT NULL,
  target TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  max_attempts INTEGER NOT NULL,
  next_attempt_at INTEGER NOT NULL,
  lease_until INTEGER,
  last_error TEXT,
  delivered_at INTEGER,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX deliveries_due ON deliveries (status, next_attempt_at);
CREATE INDEX deliveries_request ON deliveries (request_id);
