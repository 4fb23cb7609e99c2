-- Lead service schema, version 1 (PostgreSQL). Same tables and meaning as the SQLite schema; they live in
-- the task store's schema (DATABASE_SCHEMA), so the two names that exist there too (api_keys,
-- idempotency_keys) carry a leads_ prefix here. Times are bigint milliseconds since the epoch; JSON
-- columns are jsonb.

CREATE TABLE pros (
  id text PRIMARY KEY,
  external_id text NOT NULL UNIQUE,
  name text NOT NULL,
  phone text,
  email text,
  webhook_url text,
  webhook_secret text,
  address text,
  zip text NOT NULL,
  lat double precision NOT NULL,
  lng double precision NOT NULL,
  rating double precision,
  review_count integer,
  website text,
  description text,
  services jsonb NOT NULL,
  is_demo boolean NOT NULL DEFAULT false,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX pros_demo ON pros (is_demo) WHERE is_demo;

-- One row per (pro, category) with the location copied in: a radius search is a range scan of
-- (category, lat) with lng checked inside the index, so only pros in the bounding box are read.
CREATE TABLE pro_categories (
  category text NOT NULL,
  lat double precision NOT NULL,
  lng double precision NOT NULL,
  pro_id text NOT NULL REFERENCES pros(id) ON DELETE CASCADE,
  PRIMARY KEY (pro_id, category)
);
CREATE INDEX pro_categories_geo ON pro_categories (category, lat, lng, pro_id);

CREATE TABLE accounts (
  id text PRIMARY KEY,
  email text NOT NULL UNIQUE,
  created_at bigint NOT NULL
);

CREATE TABLE leads_api_keys (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  key_hash text NOT NULL UNIQUE,
  prefix text NOT NULL,
  created_at bigint NOT NULL,
  revoked_at bigint
);
CREATE INDEX leads_api_keys_account ON leads_api_keys (account_id);

CREATE TABLE verifications (
  token_hash text PRIMARY KEY,
  email text NOT NULL,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  used_at bigint
);

CREATE TABLE register_attempts (
  ip text NOT NULL,
  email_hash text NOT NULL,
  at bigint NOT NULL
);
CREATE INDEX register_attempts_ip ON register_attempts (ip, at);
CREATE INDEX register_attempts_email ON register_attempts (email_hash, at);
CREATE INDEX register_attempts_at ON register_attempts (at);

CREATE TABLE usage_daily (
  account_id text NOT NULL,
  day text NOT NULL,
  searches integer NOT NULL DEFAULT 0,
  requests integer NOT NULL DEFAULT 0,
  PRIMARY KEY (account_id, day)
);

CREATE TABLE usage_categories (
  account_id text NOT NULL,
  day text NOT NULL,
  category text NOT NULL,
  PRIMARY KEY (account_id, day, category)
);

CREATE TABLE searches (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  service text NOT NULL,
  category text NOT NULL,
  zip text NOT NULL,
  radius_miles double precision NOT NULL,
  result_limit integer NOT NULL,
  status text NOT NULL,
  results jsonb,
  meta jsonb,
  error text,
  created_at bigint NOT NULL,
  completed_at bigint
);
CREATE INDEX searches_pending ON searches (created_at) WHERE status = 'pending';

CREATE TABLE requests (
  id text PRIMARY KEY,
  account_id text NOT NULL,
  pro_id text NOT NULL,
  pro_name text NOT NULL,
  category text NOT NULL,
  zip text,
  name text NOT NULL,
  phone text NOT NULL,
  email text,
  notes text NOT NULL,
  consent jsonb NOT NULL,
  is_demo boolean NOT NULL,
  created_at bigint NOT NULL,
  erased_at bigint
);
CREATE INDEX requests_dedup ON requests (phone, pro_id, category, created_at);
CREATE INDEX requests_created ON requests (created_at) WHERE erased_at IS NULL;

CREATE TABLE request_access (
  request_id text NOT NULL,
  account_id text NOT NULL,
  PRIMARY KEY (request_id, account_id)
);

CREATE TABLE leads_idempotency_keys (
  account_id text NOT NULL,
  key text NOT NULL,
  body_hash text NOT NULL,
  request_id text NOT NULL,
  created_at bigint NOT NULL,
  PRIMARY KEY (account_id, key)
);

-- The notification outbox: written in the same transaction as the request, drained by the dispatcher(s);
-- claims take due rows FOR UPDATE SKIP LOCKED, so dispatchers on many nodes never send one twice.
CREATE TABLE deliveries (
  id text PRIMARY KEY,
  request_id text NOT NULL,
  channel text NOT NULL,
  target jsonb NOT NULL,
  payload jsonb NOT NULL,
  status text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL,
  next_attempt_at bigint NOT NULL,
  lease_until bigint,
  last_error text,
  delivered_at bigint,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX deliveries_due ON deliveries (status, next_attempt_at);
CREATE INDEX deliveries_request ON deliveries (request_id);
