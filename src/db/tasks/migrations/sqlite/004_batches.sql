-- Batches: one call, many inputs. Each distinct input is an ordinary task (so workers, leases, retries and
-- refunds apply unchanged) carrying its batch id; batch_items maps every input position to its task, so
-- identical inputs share one task (run once, charged once) and results come back in input order.
CREATE TABLE batches (
  id           TEXT PRIMARY KEY,
  tool         TEXT NOT NULL,
  payer_kind   TEXT NOT NULL,
  payer_id     TEXT,
  total        INTEGER NOT NULL,
  unique_count INTEGER NOT NULL,
  price_micros INTEGER NOT NULL,
  created_at   INTEGER NOT NULL
);
CREATE TABLE batch_items (
  batch_id TEXT NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
  idx      INTEGER NOT NULL,
  task_id  TEXT NOT NULL,
  PRIMARY KEY (batch_id, idx)
);
ALTER TABLE tasks ADD COLUMN batch_id TEXT;
CREATE INDEX tasks_by_batch ON tasks (batch_id, status) WHERE batch_id IS NOT NULL;
