-- Tasks, API keys with their credit ledger, idempotency records and x402 payment nonces: the same tables
-- as sqlite/001_init.sql. Times are epoch milliseconds (bigint), money is integer micro-USD (bigint).
-- Task input and result are `json`, not `jsonb`: they are echoed back to callers and must keep the tool's
-- key order and any \u0000 escapes exactly; the payment record is internal, so it is `jsonb`.
CREATE TABLE tasks (
  id               text PRIMARY KEY,
  tool             text NOT NULL,
  input            json NOT NULL,
  status           text NOT NULL CHECK (status IN ('pending', 'running', 'complete', 'failed', 'cancelled')),
  result           json,
  error            text,
  error_kind       text,
  payer_kind       text NOT NULL,
  payer_id         text,
  price_micros     bigint NOT NULL DEFAULT 0,
  charged_micros   bigint NOT NULL DEFAULT 0,
  payment          jsonb,
  attempts         integer NOT NULL DEFAULT 0,
  max_attempts     integer NOT NULL,
  lease_owner      text,
  lease_expires_at bigint,
  run_after        bigint NOT NULL,
  cancel_requested boolean NOT NULL DEFAULT false,
  created_at       bigint NOT NULL,
  started_at       bigint,
  finished_at      bigint
);
-- Claims read only pending rows and sweeps only running ones: partial indexes stay small however many
-- finished tasks are kept for the retention period.
CREATE INDEX tasks_claimable ON tasks (run_after, created_at) WHERE status = 'pending';
CREATE INDEX tasks_leases ON tasks (lease_expires_at) WHERE status = 'running';
CREATE INDEX tasks_finished ON tasks (finished_at) WHERE finished_at IS NOT NULL;
CREATE INDEX tasks_by_payer ON tasks (payer_kind, payer_id, created_at);

CREATE TABLE api_keys (
  id             text PRIMARY KEY,
  hash           text NOT NULL UNIQUE,
  prefix         text NOT NULL,
  label          text,
  balance_micros bigint NOT NULL DEFAULT 0 CHECK (balance_micros >= 0),
  created_at     bigint NOT NULL,
  revoked_at     bigint
);
CREATE INDEX api_keys_prefix ON api_keys (prefix);

CREATE TABLE credit_ledger (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  key_id       text NOT NULL REFERENCES api_keys (id),
  task_id      text,
  delta_micros bigint NOT NULL,
  reason       text NOT NULL,
  created_at   bigint NOT NULL
);
-- A task is charged at most once and refunded at most once, whatever retries or crashes happen.
CREATE UNIQUE INDEX credit_ledger_once ON credit_ledger (task_id, reason) WHERE task_id IS NOT NULL;
CREATE INDEX credit_ledger_by_key ON credit_ledger (key_id);

CREATE TABLE idempotency_keys (
  scope        text NOT NULL,
  key          text NOT NULL,
  request_hash text NOT NULL,
  task_id      text NOT NULL,
  created_at   bigint NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX idempotency_created ON idempotency_keys (created_at);

CREATE TABLE payment_nonces (
  network    text NOT NULL,
  asset      text NOT NULL,
  payer      text NOT NULL,
  nonce      text NOT NULL,
  task_id    text NOT NULL,
  created_at bigint NOT NULL,
  PRIMARY KEY (network, asset, payer, nonce)
);
