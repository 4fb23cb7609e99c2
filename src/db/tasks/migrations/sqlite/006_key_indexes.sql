-- The indexes PostgreSQL has had since 001: keys found by their displayed prefix, ledger rows by key.
CREATE INDEX IF NOT EXISTS api_keys_prefix ON api_keys (prefix);
CREATE INDEX IF NOT EXISTS credit_ledger_by_key ON credit_ledger (key_id);
