-- The same schema on both dialects, so the lead operations are written once: the two tables whose names
-- PostgreSQL prefixes (there they share a schema with the task store's api_keys and idempotency_keys) get
-- the prefix here too, and the indexes match PostgreSQL's. Renaming keeps every row.
ALTER TABLE api_keys RENAME TO leads_api_keys;
DROP INDEX api_keys_account;
CREATE INDEX leads_api_keys_account ON leads_api_keys (account_id);
ALTER TABLE idempotency_keys RENAME TO leads_idempotency_keys;

-- `WHERE is_demo` (not `= 1`): the predicate the shared queries use, which SQLite only matches literally.
DROP INDEX pros_demo;
CREATE INDEX pros_demo ON pros (is_demo) WHERE is_demo;

CREATE INDEX register_attempts_at ON register_attempts (at);

DROP INDEX searches_pending;
CREATE INDEX searches_pending ON searches (created_at) WHERE status = 'pending';
