-- The settler's sweep (list-unsettled-payments.ts) asks for finished x402 tasks whose payment is still
-- pending, oldest first. Without this index SQLite read every x402 task the store held,
-- parsing each payment's JSON, then sorted, so its cost grew with the store (in a 10-minute
-- soak at 1,000 req/s on SQLite, the API node's creation latency with it). Partial: a task enters when it
-- finishes unsettled and leaves when its payment is settled, so the index holds only the payments still
-- owed. payer_kind leads, as the query's equality, so the planner takes this index over tasks_by_payer and
-- needs no sort.
CREATE INDEX tasks_x402_unsettled ON tasks (payer_kind, finished_at, id) WHERE payer_kind = 'x402' AND finished_at IS NOT NULL AND payment->>'status' = 'pending';
