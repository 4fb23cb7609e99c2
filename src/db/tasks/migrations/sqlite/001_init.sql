-- Tasks, API keys with their credit ledger, idempotency records and x402 payment nonces.
CREATE TABLE tasks (
  id               TEXT PRIMARY KEY,
  tool             TEXT NOT NULL,
  input            TEXT NOT NULL,
  status           TEXT NOT NULL CHECK (status IN ('pending', 'running', 'complete', 'failed', 'cancelled')),
  result           TEXT,
  error            TEXT,
  error_kind       TEXT,
  payer_kind       TEXT NOT NULL,
  payer_id         TEXT,
  price_micros     INTEGER NOT NULL DEFAULT 0,
  charged_micros   INTEGER NOT NULL DEFAULT 0,
  payment          TEXT,
  attempts         INTEGER NOT NULL DEFAULT 0,
  max_attempts     INTEGER NOT NULL,
  lease_owner      TEXT,
  lease_expires_at INTEGER,
  run_after        INTEGER NOT NULL,
  cancel_requested INTEGER NOT NULL DEFAULT 0,
  created_at       INTEGER NOT NULL,
  started_at       INTEGER,
  finished_at      INTEGER
);
CREATE INDEX tasks_claimable ON tasks (run_after, created_at) WHERE status = 'pending';
CREATE INDEX tasks_leases ON tasks (lease_expires_at) WHERE status = 'running';
CREATE INDEX tasks_finished ON tasks (finished_at) WHERE finished_at IS NOT NULL;
CREATE INDEX tasks_by_payer ON tasks (payer_kind, payer_id, created_at);

CREATE TABLE api_keys (
  id             TEXT PRIMARY KEY,
  hash           TEXT NOT NULL UNIQUE,
  prefix         TEXT NOT NULL,
  label          TEXT,
  balance_micros INTEGER NOT NULL DEFAULT 0 CHECK (balance_micros >= 0),
  created_at     INTEGER NOT NULL,
  revoked_at     INTEGER
);

CREATE TABLE credit_ledger (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  key_id       TEXT NOT NULL REFERENCES api_keys (id),
  task_id      TEXT,
  delta_micros INTEGER NOT NULL,
  reason       TEXT NOT NULL,
  created_at   INTEGER NOT NULL
);
-- A task is charged at most once and refunded at most once, whatever retries or crashes happen.
CREATE UNIQUE INDEX credit_ledger_once ON credit_ledger (task_id, reason) WHERE task_id IS NOT NULL;

CREATE TABLE idempotency_keys (
  scope        TEXT NOT NULL,
  key          TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  task_id      TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_created ON idempotency_keys (created_at);

CREATE TABLE payment_nonces (
  network    TEXT NOT NULL,
  asset      TEXT NOT NULL,
  payer      TEXT NOT NULL,
  nonce      TEXT NOT NULL,
  task_id    TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (network, asset, payer, nonce)
);
