-- One outbox for every notification the service sends (docs/webhooks.md): the lead service's e-mails and
-- signed webhooks to professionals leave from webhook_outbox too, drained by the same dispatcher (before,
-- they had their own `deliveries` table, on SQLite in DATA_DIR/leads.db; the lead migration 003 moves its
-- rows here). A lead notification's message is fixed when its request is written, so it is kept on the
-- row (`payload`), with the professional's own signing secret (`signing_secret`: its webhooks are signed
-- X-Leads-Signature as before, not with an API key's whsec_ secret) and its own attempt budget.
-- Task and batch messages leave these NULL: their body is built from the settled task at each attempt.
ALTER TABLE webhook_outbox ADD COLUMN channel TEXT NOT NULL DEFAULT 'webhook'; -- 'webhook' or 'email' (url is then the address)
ALTER TABLE webhook_outbox ADD COLUMN payload TEXT;
ALTER TABLE webhook_outbox ADD COLUMN signing_secret TEXT;
ALTER TABLE webhook_outbox ADD COLUMN max_attempts BIGINT; -- NULL: the configured WEBHOOK_MAX_ATTEMPTS
