-- Self-serve API keys bought with x402 (POST /v1/keys, POST /v1/keys/current/credits). A purchase is
-- recorded (and its payment nonce reserved in payment_nonces) before the payment is settled; credit is
-- granted only when it settles, once, by moving the row from 'pending' to 'settled'.
CREATE TABLE key_purchases (
  id         text PRIMARY KEY,
  kind       text NOT NULL CHECK (kind IN ('create', 'topup')),
  key_id     text REFERENCES api_keys (id),
  wallet     text NOT NULL,
  micros     bigint NOT NULL CHECK (micros > 0),
  status     text NOT NULL CHECK (status IN ('pending', 'settled', 'unpaid')),
  payment    jsonb NOT NULL,
  created_at bigint NOT NULL,
  settled_at bigint
);
CREATE INDEX key_purchases_by_wallet ON key_purchases (wallet, created_at);
