-- Batches: one call, many inputs. Same tables as sqlite/004_batches.sql: each distinct input is an
-- ordinary task carrying its batch id; batch_items maps every input position to its task, so identical
-- inputs share one task (run once, charged once) and results come back in input order.
CREATE TABLE batches (
  id           text PRIMARY KEY,
  tool         text NOT NULL,
  payer_kind   text NOT NULL,
  payer_id     text,
  total        integer NOT NULL,
  unique_count integer NOT NULL,
  price_micros bigint NOT NULL,
  created_at   bigint NOT NULL
);
CREATE TABLE batch_items (
  batch_id text NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
  idx      integer NOT NULL,
  task_id  text NOT NULL,
  PRIMARY KEY (batch_id, idx)
);
ALTER TABLE tasks ADD COLUMN batch_id text;
CREATE INDEX tasks_by_batch ON tasks (batch_id, status) WHERE batch_id IS NOT NULL;
