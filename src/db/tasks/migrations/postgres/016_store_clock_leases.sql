-- Leases on the store's clock (docs/operations.md, "Clocks"): a worker whose clock runs minutes ahead must
-- not see a live lease as expired. claim_tasks keeps its eight arguments and is replaced in place, so every
-- process, including one of the previous release during a rolling upgrade, claims by the same rule. Two
-- things change from 014: a session's lease (task_sessions.expires_at, now written from this server's
-- clock by renewSession) is compared with this server's clock, and the lease a claim writes ends on this
-- server's clock: lease_until - now_ms is the lease's length, whatever the caller's clock says. now_ms
-- still decides which tasks are due (run_after) and is the started_at written. SQLite's claim is not SQL
-- of a migration (claim-tasks.sqlite.ts) and needs none.

CREATE OR REPLACE FUNCTION claim_tasks(now_ms bigint, batch integer, owner text, lease_until bigint, only_tools text[], except_tools text[],
  limited_tools text[], tool_limits integer[])
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
  -- statement_timestamp(): the same instant as dialect.nowMs in the statements around this one.
  store_now constant bigint := (extract(epoch FROM statement_timestamp()) * 1000)::bigint;
  first_kind text;
  first_pid text;
  candidate record;
  chosen text[] := '{}';
  chosen_tools text[] := '{}';
  held text[] := '{}';
  held_tools text[] := '{}';
  full_tools text[] := '{}';
  got_ids text[];
  got_tools text[];
  passed_over boolean;
BEGIN
  -- Who waits first, and is anyone else waiting? Two descents of tasks_pending_by_payer.
  SELECT t.payer_kind, COALESCE(t.payer_id, '') INTO first_kind, first_pid FROM tasks t
  WHERE t.status = 'pending' ORDER BY t.payer_kind, COALESCE(t.payer_id, '') LIMIT 1;
  IF NOT FOUND THEN
    RETURN;
  END IF;

  -- Ordered like the skip scan below, so it is one descent from the first payer's key, not a filter.
  PERFORM 1 FROM tasks t WHERE t.status = 'pending' AND (t.payer_kind, COALESCE(t.payer_id, '')) > (first_kind, first_pid)
  ORDER BY t.payer_kind, COALESCE(t.payer_id, '') LIMIT 1;
  IF FOUND THEN
    FOR candidate IN
      WITH RECURSIVE payers (kind, pid) AS (
        SELECT first_kind, first_pid
        UNION ALL
        SELECT nxt.kind, nxt.pid FROM payers p CROSS JOIN LATERAL (
          SELECT payer_kind AS kind, COALESCE(payer_id, '') AS pid FROM tasks
          WHERE status = 'pending' AND (payer_kind, COALESCE(payer_id, '')) > (p.kind, p.pid)
          ORDER BY payer_kind, COALESCE(payer_id, '') LIMIT 1
        ) nxt
      ),
      first_payers AS (SELECT kind, pid FROM payers LIMIT max_payers),
      candidates AS (
        SELECT c.id, c.tool, c.payer_kind, c.pid, c.run_after, c.created_at FROM first_payers fp CROSS JOIN LATERAL (
          SELECT id, tool, payer_kind, COALESCE(payer_id, '') AS pid, run_after, created_at FROM tasks
          WHERE status = 'pending' AND payer_kind = fp.kind AND COALESCE(payer_id, '') = fp.pid AND run_after <= now_ms
            AND (only_tools IS NULL OR tool = ANY (only_tools))
            AND (except_tools IS NULL OR tool <> ALL (except_tools))
            AND (session IS NULL OR session = owner OR NOT EXISTS (SELECT 1 FROM task_sessions s WHERE s.id = tasks.session AND s.expires_at > store_now))
          ORDER BY payer_kind, COALESCE(payer_id, ''), run_after, created_at, id
          LIMIT batch
        ) c
        UNION
        (SELECT id, tool, payer_kind, COALESCE(payer_id, ''), run_after, created_at FROM tasks
         WHERE status = 'pending' AND run_after <= now_ms
           AND (only_tools IS NULL OR tool = ANY (only_tools))
           AND (except_tools IS NULL OR tool <> ALL (except_tools))
           AND (session IS NULL OR session = owner OR NOT EXISTS (SELECT 1 FROM task_sessions s WHERE s.id = tasks.session AND s.expires_at > store_now))
         ORDER BY run_after, created_at, id
         LIMIT batch)
      )
      SELECT id, tool, row_number() OVER (PARTITION BY payer_kind, pid ORDER BY run_after, created_at, id) AS payer_rank, run_after, created_at
      FROM candidates
      ORDER BY payer_rank, run_after, created_at, id
    LOOP
      IF cardinality(array_positions(chosen_tools, candidate.tool))
          < COALESCE(tool_limits[array_position(limited_tools, candidate.tool)], batch) THEN
        chosen := chosen || candidate.id;
        chosen_tools := chosen_tools || candidate.tool;
        EXIT WHEN cardinality(chosen) >= batch;
      ELSE
        full_tools := full_tools || candidate.tool;
      END IF;
    END LOOP;
    -- SKIP LOCKED: rows another worker is claiming right now are passed over, not waited for. The
    -- status is checked on the rows as locked (a worker may have claimed one since this claim's
    -- snapshot), outside the locking scan: inside, `status = 'pending'` would let the planner prefer a
    -- whole scan of a pending-only index to 16 primary-key lookups on a table it believes nearly empty.
    SELECT COALESCE(array_agg(l.id), '{}'), COALESCE(array_agg(l.tool), '{}') INTO held, held_tools
    FROM (SELECT t.id, t.tool, t.status FROM tasks t WHERE t.id = ANY (chosen) OFFSET 0 FOR UPDATE SKIP LOCKED) l
    WHERE l.status = 'pending';
    -- Done, unless another worker holds some of the chosen rows, or the candidates ran out on a tool's
    -- limit while more may be due.
    IF cardinality(held) = cardinality(chosen) AND (cardinality(held) >= batch OR cardinality(full_tools) = 0) THEN
      batch := 0;
    END IF;
  END IF;

  -- Due rows in claim order, locked FOR UPDATE SKIP LOCKED as the ordered scan of tasks_claimable
  -- reaches them, so workers claiming at once take different rows and nobody waits. A row of a tool
  -- already at its limit is locked but not claimed (released when this transaction ends); that tool is
  -- then left out and the scan goes on for the slots still free.
  WHILE cardinality(held) < batch LOOP
    SELECT array_agg(due.id ORDER BY due.run_after, due.created_at, due.id), array_agg(due.tool ORDER BY due.run_after, due.created_at, due.id)
    INTO got_ids, got_tools
    FROM (
      SELECT t.id, t.tool, t.run_after, t.created_at FROM tasks t
      WHERE t.status = 'pending' AND t.run_after <= now_ms
        AND (only_tools IS NULL OR t.tool = ANY (only_tools))
        AND (except_tools IS NULL OR t.tool <> ALL (except_tools))
        AND t.tool <> ALL (full_tools) AND t.id <> ALL (held)
        AND (t.session IS NULL OR t.session = owner OR NOT EXISTS (SELECT 1 FROM task_sessions s WHERE s.id = t.session AND s.expires_at > store_now))
      ORDER BY t.run_after, t.created_at, t.id
      LIMIT batch - cardinality(held)
      FOR UPDATE SKIP LOCKED
    ) due;
    EXIT WHEN got_ids IS NULL;
    passed_over := false;
    FOR i IN 1 .. cardinality(got_ids) LOOP
      IF cardinality(array_positions(held_tools, got_tools[i])) < COALESCE(tool_limits[array_position(limited_tools, got_tools[i])], batch) THEN
        held := held || got_ids[i];
        held_tools := held_tools || got_tools[i];
      ELSE
        passed_over := true;
        full_tools := full_tools || got_tools[i];
      END IF;
    END LOOP;
    EXIT WHEN NOT passed_over;
  END LOOP;

  RETURN QUERY
  UPDATE tasks t SET status = 'running', lease_owner = owner, lease_expires_at = store_now + GREATEST(lease_until - now_ms, 0), attempts = t.attempts + 1,
    started_at = COALESCE(t.started_at, now_ms)
  WHERE t.id = ANY (held)
  RETURNING t.*;
END
$$;
