// Claiming on SQLite: due pending tasks in fair order (fair-order.ts: round-robin across payers, each
// payer's tasks in claim order) within the per-tool limits asked for, moved to running under a lease. The
// choice is made on one snapshot, without the write lock; the move is one BEGIN IMMEDIATE transaction that
// takes a row only while it is still pending and claimable, so no two workers, in this process or another,
// claim the same task. Holding the write lock through the choice (several queries per payer) kept the
// API's creations waiting on it: in the soak, a sixth of the worker's time was spent choosing under the
// lock, and the API met it a hundred and more times a second. The candidates are bounded as on PostgreSQL
// (migration 007): at most MAX_PAYERS payers, found one step of tasks_pending_by_payer at a time, `limit`
// due rows each, plus the first `limit` due rows in global claim order so a payer past the cap is still
// served oldest first.
import type { ClaimOptions } from '../../store/port.js';
import { camelColumns } from '../columns.js';
import { sqlite } from '../dialect.js';
import type { SqliteDb } from '../sqlite.js';
import { claimOrder, fairOrder, takeWithinToolLimits, type FairCandidate } from './fair-order.js';
import { TASK_COLUMNS, toTask, type TaskRecord } from './records.js';

const MAX_PAYERS = 64;
const PAYER = "COALESCE(payer_id, '')";
// A session's task (migration 014) goes to that session (`owner`: the placeholder holding the claiming worker
// pool) while its lease lives, on the store's clock like every lease (renewSession wrote it so); `now` only
// decides what is due.
const ownOrOrphaned = (owner: string) =>
  `AND (session IS NULL OR session = ${owner} OR NOT EXISTS (SELECT 1 FROM task_sessions s WHERE s.id = tasks.session AND s.expires_at > ${sqlite.nowMs}))`;
const OWN_OR_ORPHANED = ownOrOrphaned('$7');

interface PayerKey {
  payer_kind: string;
  pid: string;
}

type Candidate = FairCandidate & Pick<TaskRecord, 'tool'>;
/** Read in the candidate's shape (columns.ts). */
const CANDIDATE_COLUMNS = camelColumns('id, tool, payer_kind, payer_id, run_after, created_at');

/**
 * A tool name as an SQL string literal. The tools a worker runs are the same on every claim, so they are
 * written into the statement (still prepared once) rather than bound as a JSON array: json_each and the
 * IN list built from it on every execution cost ~20 µs per query, and a claim runs a query per payer.
 */
const sqlText = (name: string) => `'${name.replaceAll("'", "''")}'`;

const payerOf = (kind: string, id: string | null) => `${kind}\u0000${id ?? ''}`;

/** Whether every task taken ranks within its payer's first `perPayer` candidates (in claim order). */
function withinReadRanks(candidates: readonly Candidate[], chosen: readonly Candidate[], perPayer: number): boolean {
  const seen = new Map<string, number>();
  const early = new Set<string>();
  for (const c of [...candidates].sort(claimOrder)) {
    const payer = payerOf(c.payerKind, c.payerId);
    const rank = (seen.get(payer) ?? 0) + 1;
    seen.set(payer, rank);
    if (rank <= perPayer) early.add(c.id);
  }
  return chosen.every((c) => early.has(c.id));
}

/** `fullRead` reads `limit` tasks of every payer up front (what the short read must decide like; for tests). */
export async function claimTasksSqlite(db: SqliteDb, o: ClaimOptions, { fullRead = false } = {}) {
  const d = db.dialect;
  const only = o.onlyTools ? `AND tool IN (${o.onlyTools.map(sqlText).join(', ')})` : '';
  const except = o.excludeTools?.length ? `AND NOT ${d.inArray('tool', '$3')}` : '';
  const filters = [o.now, d.array(o.onlyTools ?? []), d.array(o.excludeTools ?? []), o.limit];
  const choose = () => {
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
    const payers: PayerKey[] = [];
    for (let payer = firstPayer.get<PayerKey>([]); payer && payers.length < MAX_PAYERS; payer = nextPayer(payer)) payers.push(payer);
    const head = db.sql(
      `SELECT ${CANDIDATE_COLUMNS} FROM tasks WHERE status = 'pending' AND run_after <= $1 ${only} ${except} ${OWN_OR_ORPHANED}
       ORDER BY run_after, created_at, id LIMIT $4`,
    );
    /** Each payer's first `perPayer` due tasks and the first `limit` in claim order; whether a payer may have more. */
    const gather = (perPayer: number) => {
      const candidates = new Map<string, Candidate>();
      let cut = false;
      for (const p of payers) {
        const rows = ofPayer.all<Candidate>([o.now, filters[1], filters[2], perPayer, p.payer_kind, p.pid, o.owner]);
        for (const r of rows) candidates.set(r.id, r);
        if (rows.length === perPayer && perPayer < o.limit) cut = true;
      }
      for (const r of head.all<Candidate>([...filters, null, null, o.owner])) candidates.set(r.id, r);
      return { candidates: [...candidates.values()], cut, perPayer };
    };
    // A claim takes rank 1 of every payer, then rank 2…: with P payers it mostly needs ceil(limit / P) of
    // each, not `limit` of each (8 payers and 16 free slots read 144 rows to take 16). The short read
    // decides the same as the full one whenever the take filled every slot from tasks ranked within
    // those first ceil(limit / P) of their payer (both reads hold the same such tasks, in the same fair
    // order); otherwise a payer's unread rows might have ranked there, and the full read decides.
    const taken = new Map<string, number>();
    let read = gather(fullRead ? o.limit : Math.max(1, Math.ceil(o.limit / Math.max(1, payers.length))));
    let { took: chosen, passedOver } = takeWithinToolLimits(fairOrder(read.candidates), o.limit, o.toolLimits, taken);
    if (read.cut && !(chosen.length === o.limit && withinReadRanks(read.candidates, chosen, read.perPayer))) {
      read = gather(o.limit);
      taken.clear();
      ({ took: chosen, passedOver } = takeWithinToolLimits(fairOrder(read.candidates), o.limit, o.toolLimits, taken));
    }

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
    return chosen.map((c) => c.id);
  };
  // The lease ends on the store's clock ($2 is its length), so a worker whose clock runs ahead cannot
  // recover it early (recover-expired-leases.ts); started_at stays the worker's `now`. A task another worker
  // claimed, or whose session another pool took up, since the snapshot is passed over (claimed next time).
  const claim = db.sql(
    `UPDATE tasks SET status = 'running', lease_owner = $1, lease_expires_at = ${d.nowMs} + $2, attempts = attempts + 1, started_at = COALESCE(started_at, $3)
     WHERE id = $4 AND status = 'pending' AND run_after <= $3 ${ownOrOrphaned('$1')} RETURNING ${TASK_COLUMNS}`,
  );
  const ids = await db.snapshot(choose);
  if (ids.length === 0) return [];
  return db.immediate(() =>
    ids.flatMap((id) => {
      const r = claim.get<TaskRecord>([o.owner, Math.max(0, Math.round(o.leaseMs)), o.now, id]);
      return r ? [toTask(d, r)] : [];
    }),
  );
}
