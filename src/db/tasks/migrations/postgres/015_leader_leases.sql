-- Leader leases (src/db/tasks/leader-leases.ts): the same change as SQLite's 015. One API node at a time
-- settles x402 payments from a settler account (its transactions share the account's nonce); the holder
-- renews its row well inside the lease, and when it dies the row expires and another node takes it over.
CREATE TABLE leader_leases (
  name       text PRIMARY KEY,
  holder     text NOT NULL,
  expires_at bigint NOT NULL
);
