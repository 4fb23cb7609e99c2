-- Fair claiming (see claim-tasks.sqlite.ts): the same indexes as postgres/007_fair_claim.sql. `id` joins
-- the claim order as its last tie-break, and each payer's pending tasks can be read in claim order, with
-- payers found one index step at a time (NULL payer_id folded to '' so row values compare).
DROP INDEX tasks_claimable;
CREATE INDEX tasks_claimable ON tasks (run_after, created_at, id) WHERE status = 'pending';
CREATE INDEX tasks_pending_by_payer ON tasks (payer_kind, COALESCE(payer_id, ''), run_after, created_at, id) WHERE status = 'pending';
