// Claiming on SQLite: due pending tasks in fair order (fair-order.ts: round-robin across payers, each
// payer's tasks in claim order) within the per-tool limits asked for, moved to running under a lease in
// one BEGIN IMMEDIATE transaction. The write lock makes each claim exclusive: no other worker, in this
// process or another, can claim the same rows in between. The candidates are bounded as on PostgreSQL
// (migration 007): at most MAX_PAYERS payers, found one step of tasks_pending_by_payer at a time, `limit`
// due rows each, plus the first `limit` due rows in global claim order so a payer past the cap is still
// served oldest first.
import type { ClaimOptions } from '../../store/port.js';
import { camelColumns } from '../columns.js';
import type { SqliteDb } from '../sqlite.js';
import { fairOrder, takeWithinToolLimits, type FairCandidate } from './fair-order.js';
import { TASK_COLUMNS, toTask, type TaskRecord } from './records.js';

const MAX_PAYERS = 64;
const PAYER = "COALESCE(payer_id, '')";
// A session's task (migration 014) goes to that session ($7, the claiming worker pool) while its lease lives.
const OWN_OR_ORPHANED = 'AND (session IS NULL OR session = $7 OR NOT EXISTS (SELECT 1 FROM task_sessions s WHERE s.id = tasks.session AND s.expires_at > $1))';

interface PayerKey {
  payer_kind: string;
  pid: string;
}

type Candidate = FairCandidate & Pick<TaskRecord, 'tool'>;
/** Read in the candidate's shape (columns.ts). */
const CANDIDATE_COLUMNS = camelColumns('id, tool, payer_kind, payer_id, run_after, created_at');

export function claimTasksSqlite(db: SqliteDb, o: ClaimOptions) {
  const d = db.dialect;
  const only = o.onlyTools ? `AND ${d.inArray('tool', '$2')}` : '';
  const except = o.excludeTools?.length ? `AND NOT ${d.inArray('tool', '$3')}` : '';
  const filters = [o.now, d.array(o.onlyTools ?? []), d.array(o.excludeTools ?? []), o.limit];
  return db.immediate(() => {
    const firstPayer = db.sql(`SELECT payer_kind, ${PAYER} AS pid FROM tasks WHERE status = 'pending' ORDER BY payer_kind, ${PAYER} LIMIT 1`);
    // Two seeks, not one row-value comparison: SQLite seeks a row value only on its first column, and
    // would then step through every pending task of the current payer's kind.
    const nextOfKind = db.sql(
      `SELECT payer_kind, ${PAYER} AS pid FROM tasks WHERE status = 'pending' AND payer_kind = $1 AND ${PAYER} > $2 ORDER BY payer_kind, ${PAYER} LIMIT 1`,
    );
    const nextKind = db.sql(`SELECT payer_kind, ${PAYER} AS pid FROM tasks WHERE status = 'pending' AND payer_kind > $1 ORDER BY payer_kind, ${PAYER} LIMIT 1`);
    const nextPayer = (p: PayerKey) => nextOfKind.get<PayerKey>([p.payer_kind, p.pid]) ?? nextKind.get<PayerKey>([p.payer_kind]);
    const ofPayer = db.sql(
      `SELECT ${CANDIDATE_COLUMNS} FROM tasks WHERE status = 'pending' AND payer_kind = $5 AND ${PAYER} = $6 AND run_after <= $1 ${only} ${except} ${OWN_OR_ORPHANED}
       ORDER BY run_after, created_at, id LIMIT $4`,
    );
    const candidates = new Map<string, Candidate>();
    const add = (c: Candidate) => candidates.set(c.id, c);
    let payer = firstPayer.get<PayerKey>([]);
    for (let n = 0; payer && n < MAX_PAYERS; n++) {
      for (const r of ofPayer.all<Candidate>([...filters, payer.payer_kind, payer.pid, o.owner])) add(r);
      payer = nextPayer(payer);
    }
    const head = db.sql(
      `SELECT ${CANDIDATE_COLUMNS} FROM tasks WHERE status = 'pending' AND run_after <= $1 ${only} ${except} ${OWN_OR_ORPHANED}
       ORDER BY run_after, created_at, id LIMIT $4`,
    );
    for (const r of head.all<Candidate>([...filters, null, null, o.owner])) add(r);

    const claim = db.sql(
      `UPDATE tasks SET status = 'running', lease_owner = $1, lease_expires_at = $2, attempts = attempts + 1, started_at = COALESCE(started_at, $3)
       WHERE id = $4 AND status = 'pending' RETURNING ${TASK_COLUMNS}`,
    );
    const taken = new Map<string, number>();
    let { took: chosen, passedOver } = takeWithinToolLimits(fairOrder([...candidates.values()]), o.limit, o.toolLimits, taken);
    // The candidates ran out on a tool's limit while more may be due: go on in claim order past the tasks
    // of the tools at their limit.
    const more = db.sql(
      `SELECT ${CANDIDATE_COLUMNS} FROM tasks WHERE status = 'pending' AND run_after <= $1 ${only} ${except}
         AND NOT ${d.inArray('tool', '$5')} AND NOT ${d.inArray('id', '$6')} ${OWN_OR_ORPHANED} ORDER BY run_after, created_at, id LIMIT $4`,
    );
    while (passedOver && chosen.length < o.limit) {
      const full = [...taken].filter(([tool, n]) => n >= (o.toolLimits?.[tool] ?? Infinity)).map(([tool]) => tool);
      const rows = more.all<Candidate>([o.now, filters[1], filters[2], o.limit - chosen.length, d.array(full), d.array(chosen.map((c) => c.id)), o.owner]);
      const next = takeWithinToolLimits(rows, o.limit - chosen.length, o.toolLimits, taken);
      chosen = [...chosen, ...next.took];
      passedOver = next.passedOver;
    }
    return chosen.flatMap(({ id }) => {
      const r = claim.get<TaskRecord>([o.owner, o.now + o.leaseMs, o.now, id]);
      return r ? [toTask(d, r)] : [];
    });
  });
}
