// Data minimisation: erases the requester details of requests older than `before`, and the message copies
// of their finished deliveries (unfinished ones keep theirs until they end). Returns how many requests.
import type { DialectName } from '../../db/dialect.js';
import { run, all, runPlan, type PlanDb } from '../../db/plan.js';
import { LEAD_SUBJECT } from './rows.js';

/** The consent record keeps what was agreed and when; only the requester's address is dropped. */
const CONSENT_WITHOUT_IP: Record<DialectName, string> = {
  sqlite: "json_set(consent, '$.ip', NULL)",
  postgres: "jsonb_set(consent, '{ip}', 'null'::jsonb)",
};

export function eraseRequesterDetails(db: PlanDb, before: number): Promise<number> {
  return runPlan(db, function* (d) {
    const erased = yield* all<{ id: string }>(
      `UPDATE requests SET name = '[erased]', phone = '[erased]', email = NULL, notes = '[erased]', consent = ${CONSENT_WITHOUT_IP[d.name]}, erased_at = $1
       WHERE erased_at IS NULL AND created_at < $2 RETURNING id`,
      [Date.now(), before],
    );
    const ids = erased.map((r) => String(r.id));
    if (ids.length > 0) {
      yield* run(
        `UPDATE webhook_outbox SET payload = '{}' WHERE subject_kind = $2 AND ${d.inArray('subject_id', '$1')} AND status IN ('delivered', 'failed', 'skipped')`,
        [d.array(ids), LEAD_SUBJECT],
      );
    }
    return ids.length;
  });
}
