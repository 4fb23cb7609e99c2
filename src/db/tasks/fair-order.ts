// The fair claim order shared by both dialects: each payer's tasks ranked in claim order (run_after,
// created_at, id), then rank 1 of every payer, rank 2 of every payer… ties in claim order. One payer's
// 10,000 pending tasks thus take one slot per round, not every slot, while other payers have tasks due;
// a single payer's tasks keep claim order, and `id` last keeps a batch's grouped tasks together.
import type { TaskRecord } from './records.js';

/** What fair order reads of a task (its record, or a claim candidate read in the same names). */
export type FairCandidate = Pick<TaskRecord, 'id' | 'payerKind' | 'payerId' | 'runAfter' | 'createdAt'>;

/** Claim order: run_after, created_at, id. */
export function claimOrder(a: FairCandidate, b: FairCandidate): number {
  return a.runAfter - b.runAfter || a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** `candidates` (distinct ids) sorted into fair order. */
export function fairOrder<T extends FairCandidate>(candidates: readonly T[]): T[] {
  const byClaim = [...candidates].sort(claimOrder);
  const seen = new Map<string, number>();
  const ranked = byClaim.map((c) => {
    const payer = `${c.payerKind}\u0000${c.payerId ?? ''}`;
    const rank = (seen.get(payer) ?? 0) + 1;
    seen.set(payer, rank);
    return { c, rank };
  });
  return ranked.sort((a, b) => a.rank - b.rank || claimOrder(a.c, b.c)).map((r) => r.c);
}

/**
 * Takes from `ordered`, in order, up to `room` tasks, keeping each tool in `toolLimits` at or under its
 * limit; `taken` counts per tool what this claim holds already and is updated. Answers the tasks taken
 * and whether a task was passed over because its tool was at its limit.
 */
export function takeWithinToolLimits<T extends { tool: string }>(
  ordered: readonly T[],
  room: number,
  toolLimits: Readonly<Record<string, number>> = {},
  taken = new Map<string, number>(),
): { took: T[]; passedOver: boolean } {
  const took: T[] = [];
  let passedOver = false;
  for (const c of ordered) {
    if (took.length >= room) break;
    const n = taken.get(c.tool) ?? 0;
    const limit = toolLimits[c.tool];
    if (limit !== undefined && n >= limit) {
      passedOver = true;
      continue;
    }
    taken.set(c.tool, n + 1);
    took.push(c);
  }
  return { took, passedOver };
}
