-- Leader leases (src/db/tasks/leader-leases.ts): one process at a time does a job that must not run in
-- every process, such as x402 settlement from one settler account (its transactions share the account's
-- nonce). The holder renews its row well inside the lease; when it dies, the row expires and another
-- process takes it over.
CREATE TABLE leader_leases (
  name       TEXT PRIMARY KEY,
  holder     TEXT NOT NULL,
  expires_at INTEGER NOT NULL
);
