// GET /v1/usage: what the calling API key spent, per tool or per UTC day, over a time range. Built from
// the tasks still kept (RETENTION), so it answers "where did my credits go" for recent activity; the
// balance itself is always exact.
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { Engine } from '../../engine/engine.js';
import { InvalidInput, Unauthorized } from '../../errors.js';
import { microsToUsd } from '../../registry/registry.js';
import type { UsageRow } from '../../store/port.js';
import { readCredential } from '../../web/credential.js';

const DAY_MS = 86_400_000;
const MAX_RANGE_DAYS = 366;

const usageQuery = z.object({
  from: z.iso
    .datetime({ offset: true, message: 'must be an ISO 8601 date-time' })
    .or(z.iso.date({ message: 'must be an ISO 8601 date or date-time' }))
    .optional(),
  to: z.iso
    .datetime({ offset: true, message: 'must be an ISO 8601 date-time' })
    .or(z.iso.date({ message: 'must be an ISO 8601 date or date-time' }))
    .optional(),
  group: z.enum(['tool', 'day'], 'must be tool or day').default('tool'),
});

function money(r: Pick<UsageRow, 'chargedMicros' | 'refundedMicros'>) {
  return { spent_usd: microsToUsd(r.chargedMicros), refunded_usd: microsToUsd(r.refundedMicros), net_usd: microsToUsd(r.chargedMicros - r.refundedMicros) };
}

export function usageRoutes(d: { engine: Engine }): Router {
  const r = Router();
  r.get('/', async (req: Request, res: Response) => {
    const q = usageQuery.safeParse(req.query);
    if (!q.success) {
      const issue = q.error.issues[0];
      const field = String(issue?.path[0] ?? 'query');
      throw new InvalidInput(`${field}: ${issue?.message}`, field);
    }
    const credential = await readCredential(req, d.engine.store);
    if (credential.kind !== 'key')
      throw new Unauthorized(
        'Send the API key as "Authorization: Bearer sk_…" to read its usage.',
        credential.kind === 'none' ? 'MISSING_CREDENTIAL' : 'WRONG_CREDENTIAL',
      );
    // `to` defaults to now and `from` to 30 days before it; a bare date means its UTC midnight.
    const to = q.data.to ? Date.parse(q.data.to) : Date.now();
    const from = q.data.from ? Date.parse(q.data.from) : to - 30 * DAY_MS;
    if (from >= to) throw new InvalidInput('from: must be before to.', 'from');
    if (to - from > MAX_RANGE_DAYS * DAY_MS) throw new InvalidInput(`from: the range may span at most ${MAX_RANGE_DAYS} days.`, 'from');
    const rows = await d.engine.store.usage({ payer: { kind: 'key', id: credential.key.id }, from, to, group: q.data.group });
    const total = rows.reduce(
      (t, x) => ({
        tasks: t.tasks + x.tasks,
        failed: t.failed + x.failed,
        cancelled: t.cancelled + x.cancelled,
        chargedMicros: t.chargedMicros + x.chargedMicros,
        refundedMicros: t.refundedMicros + x.refundedMicros,
      }),
      { tasks: 0, failed: 0, cancelled: 0, chargedMicros: 0, refundedMicros: 0 },
    );
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      key_id: credential.key.id,
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      group: q.data.group,
      balance_usd: microsToUsd(credential.key.balanceMicros),
      rows: rows.map((x) => ({ [q.data.group]: x.bucket, tasks: x.tasks, failed: x.failed, cancelled: x.cancelled, ...money(x) })),
      total: { tasks: total.tasks, failed: total.failed, cancelled: total.cancelled, ...money(total) },
    });
  });
  return r;
}
