-- Webhooks (docs/webhooks.md). A task or batch created with webhook_url keeps it on its row; the outbox
-- holds one row per event to deliver. A task's event is written by a trigger in the very statement that
-- settles the task (whatever path settles it: completion, failure, cancellation, a lost lease), so an
-- event exists exactly when its state change committed. A batch's event (all its tasks finished) is
-- derived from committed rows by the dispatcher's sweep (webhook_queued_at marks it queued, once).
ALTER TABLE tasks ADD COLUMN webhook_url TEXT;
-- Space-separated status words (completed failed cancelled) to send; NULL sends all.
ALTER TABLE tasks ADD COLUMN webhook_events TEXT;
ALTER TABLE batches ADD COLUMN webhook_url TEXT;
ALTER TABLE batches ADD COLUMN webhook_queued_at INTEGER;
CREATE INDEX batches_webhook_due ON batches (created_at) WHERE webhook_url IS NOT NULL AND webhook_queued_at IS NULL;

-- One signing secret per API key (whsec_…); after a rotation the previous one keeps signing too until
-- previous_until, so receivers can switch without dropping a delivery.
CREATE TABLE webhook_secrets (
  key_id          TEXT PRIMARY KEY,
  secret          TEXT NOT NULL,
  previous_secret TEXT,
  previous_until  INTEGER,
  created_at      INTEGER NOT NULL
);

CREATE TABLE webhook_outbox (
  id              TEXT PRIMARY KEY,           -- the webhook-id header: the same on every attempt
  key_id          TEXT NOT NULL,              -- whose secret signs it, and who may read its log
  url             TEXT NOT NULL,
  subject_kind    TEXT NOT NULL,              -- 'task' or 'batch'
  subject_id      TEXT NOT NULL,
  event           TEXT NOT NULL,              -- status word: completed, failed, cancelled
  status          TEXT NOT NULL,              -- pending, delivered, failed
  attempts        INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER NOT NULL,
  lease_owner     TEXT,
  lease_until     INTEGER,
  last_error      TEXT,
  delivered_at    INTEGER,
  created_at      INTEGER NOT NULL
);
CREATE INDEX webhook_outbox_due ON webhook_outbox (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_outbox_subject ON webhook_outbox (subject_id);

-- Every attempt, successful or not: what the owner reads at GET /v1/tasks/{id}/webhooks.
CREATE TABLE webhook_attempts (
  id          INTEGER PRIMARY KEY AUTOINCREMENT,
  message_id  TEXT NOT NULL,
  attempt     INTEGER NOT NULL,
  started_at  INTEGER NOT NULL,
  duration_ms INTEGER,          -- NULL while the attempt runs (or when its process died mid-request)
  http_status INTEGER,
  error       TEXT
);
CREATE INDEX webhook_attempts_message ON webhook_attempts (message_id, attempt);

CREATE TRIGGER tasks_webhook_event AFTER UPDATE OF status ON tasks
WHEN NEW.webhook_url IS NOT NULL AND NEW.status IN ('complete', 'failed', 'cancelled') AND OLD.status NOT IN ('complete', 'failed', 'cancelled')
BEGIN
  INSERT OR IGNORE INTO webhook_outbox (id, key_id, url, subject_kind, subject_id, event, status, attempts, next_attempt_at, created_at)
  SELECT 'msg_' || NEW.id, NEW.payer_id, NEW.webhook_url, 'task', NEW.id, e.name, 'pending', 0, COALESCE(NEW.finished_at, 0), COALESCE(NEW.finished_at, 0)
  FROM (SELECT CASE NEW.status WHEN 'complete' THEN 'completed' ELSE NEW.status END AS name) AS e
  WHERE NEW.webhook_events IS NULL OR instr(' ' || NEW.webhook_events || ' ', ' ' || e.name || ' ') > 0;
END;
