-- Fair claiming: a payer's 10,000-item batch must not fill every slot while another payer has tasks
-- waiting. Within one claim, slots go round-robin across payers: each payer's due tasks are ranked in
-- claim order (run_after, created_at, id) and the claim takes rank 1 of every payer, then rank 2, and so
-- on, ties by claim order. A single payer's tasks therefore still come in claim order, and `id` stays the
-- last tie-break so a batch's tasks created together (grouped by mail domain, rising ids) stay together.
--
-- The work stays bounded whatever the statistics say and however many tasks are pending:
--  * payers with pending tasks are found by a skip scan of tasks_pending_by_payer (one index descent per
--    payer), at most `max_payers` of them;
--  * each such payer contributes at most `batch` rows, read in order from the same index;
--  * the first `batch` due rows in global claim order (tasks_claimable) are always candidates too, so a
--    payer past the skip scan's cap is still served oldest first and never starves;
--  * only those candidates (at most batch * (max_payers + 1)) are sorted into fair order.
-- Then each candidate is locked FOR UPDATE SKIP LOCKED in that order until `batch` are held, so workers
-- claiming at once pass over each other's rows exactly as before, and the leases are set as before.
-- Number 007 on both dialects: 006 is SQLite's key_indexes.

-- id joins the claim order so ties (a batch's tasks share created_at) are broken without a sort.
DROP INDEX tasks_claimable;
CREATE INDEX tasks_claimable ON tasks (run_after, created_at, id) WHERE status = 'pending';
-- payer_id is NULL for anonymous payers; the skip scan compares row values, so NULL is folded to ''.
CREATE INDEX tasks_pending_by_payer ON tasks (payer_kind, (COALESCE(payer_id, '')), run_after, created_at, id) WHERE status = 'pending';

DROP FUNCTION claim_tasks(bigint, integer, text, bigint, text[], text[]);
CREATE FUNCTION claim_tasks(now_ms bigint, batch integer, owner text, lease_until bigint, only_tools text[], except_tools text[])
RETURNS SETOF tasks
LANGUAGE plpgsql
SET enable_seqscan = off
SET enable_bitmapscan = off
SET enable_sort = off
-- The fair-order sort of the candidates has no alternative, so enable_sort = off prices it at its
-- "disabled" cost; that cost would cross jit_above_cost and compile the query (~300 ms) on every claim.
SET jit = off
AS $$
DECLARE
  max_payers constant integer := 64;
  candidate record;
  held text[] := '{}';
BEGIN
  FOR candidate IN
    WITH RECURSIVE payers (kind, pid) AS (
      (SELECT payer_kind, COALESCE(payer_id, '') FROM tasks WHERE status = 'pending'
       ORDER BY payer_kind, COALESCE(payer_id, '') LIMIT 1)
      UNION ALL
      SELECT nxt.kind, nxt.pid FROM payers p CROSS JOIN LATERAL (
        SELECT payer_kind AS kind, COALESCE(payer_id, '') AS pid FROM tasks
        WHERE status = 'pending' AND (payer_kind, COALESCE(payer_id, '')) > (p.kind, p.pid)
        ORDER BY payer_kind, COALESCE(payer_id, '') LIMIT 1
      ) nxt
    ),
    first_payers AS (SELECT kind, pid FROM payers LIMIT max_payers),
    candidates AS (
      SELECT c.id, c.payer_kind, c.pid, c.run_after, c.created_at FROM first_payers fp CROSS JOIN LATERAL (
        SELECT id, payer_kind, COALESCE(payer_id, '') AS pid, run_after, created_at FROM tasks
        WHERE status = 'pending' AND payer_kind = fp.kind AND COALESCE(payer_id, '') = fp.pid AND run_after <= now_ms
          AND (only_tools IS NULL OR tool = ANY (only_tools))
          AND (except_tools IS NULL OR tool <> ALL (except_tools))
        ORDER BY payer_kind, COALESCE(payer_id, ''), run_after, created_at, id
        LIMIT batch
      ) c
      UNION
      (SELECT id, payer_kind, COALESCE(payer_id, ''), run_after, created_at FROM tasks
       WHERE status = 'pending' AND run_after <= now_ms
         AND (only_tools IS NULL OR tool = ANY (only_tools))
         AND (except_tools IS NULL OR tool <> ALL (except_tools))
       ORDER BY run_after, created_at, id
       LIMIT batch)
    )
    SELECT id, row_number() OVER (PARTITION BY payer_kind, pid ORDER BY run_after, created_at, id) AS payer_rank, run_after, created_at
    FROM candidates
    ORDER BY payer_rank, run_after, created_at, id
  LOOP
    -- SKIP LOCKED: rows another worker is claiming right now are passed over, not waited for, so many
    -- workers claim in parallel and each pending task goes to exactly one of them. The status is checked
    -- again on the row as locked (a worker may have claimed it since this claim's snapshot).
    PERFORM 1 FROM tasks WHERE id = candidate.id AND status = 'pending' FOR UPDATE SKIP LOCKED;
    IF FOUND THEN
      held := held || candidate.id;
      EXIT WHEN cardinality(held) >= batch;
    END IF;
  END LOOP;

  RETURN QUERY
  UPDATE tasks t SET status = 'running', lease_owner = owner, lease_expires_at = lease_until, attempts = t.attempts + 1,
    started_at = COALESCE(t.started_at, now_ms)
  WHERE t.id = ANY (held)
  RETURNING t.*;
END
$$;
