-- Self-serve API keys bought with x402 (POST /v1/keys, POST /v1/keys/current/credits). A purchase is
-- recorded (and its payment nonce reserved in payment_nonces) before the payment is settled; credit is
-- granted only when it settles, once, by moving the row from 'pending' to 'settled'.
CREATE TABLE key_purchases (
  id         TEXT PRIMARY KEY,
  kind       TEXT NOT NULL CHECK (kind IN ('create', 'topup')),
  key_id     TEXT REFERENCES api_keys (id),
  wallet     TEXT NOT NULL,
  micros     INTEGER NOT NULL CHECK (micros > 0),
  status     TEXT NOT NULL CHECK (status IN ('pending', 'settled', 'unpaid')),
  payment    TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  settled_at INTEGER
);
CREATE INDEX key_purchases_by_wallet ON key_purchases (wallet, created_at);
