// Turns the recent task timeline into the per-minute series the Overview charts draw: tasks created,
// queue depth (pending at the end of each minute), failures by tool, and p50/p95 run time by tool.
import type { TimelineRow } from './queries.js';

export interface OverviewSeries {
  /** Bucket end times, epoch seconds (uPlot's x axis). */
  times: number[];
  created: number[];
  queueDepth: number[];
  failuresByTool: Record<string, number[]>;
  p50ByTool: Record<string, (number | null)[]>;
  p95ByTool: Record<string, (number | null)[]>;
}

/** The value at quantile q of sorted numbers (nearest rank). */
export function quantile(sorted: number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export function overviewSeries(rows: TimelineRow[], now: number, minutes: number, maxTools = 6): OverviewSeries {
  const bucketMs = 60_000;
  const end = Math.ceil(now / bucketMs) * bucketMs;
  const start = end - minutes * bucketMs;
  const times = Array.from({ length: minutes }, (_, i) => (start + (i + 1) * bucketMs) / 1000);
  const bucketOf = (ms: number) => Math.floor((ms - start) / bucketMs);
  const created = new Array<number>(minutes).fill(0);
  const queueDepth = new Array<number>(minutes).fill(0);
  const failures = new Map<string, number[]>();
  const durations = new Map<string, number[][]>();
  const toolCounts = new Map<string, number>();

  for (const r of rows) {
    const b = bucketOf(r.createdAt);
    if (b >= 0 && b < minutes) created[b]!++;
    toolCounts.set(r.tool, (toolCounts.get(r.tool) ?? 0) + 1);
    for (let i = 0; i < minutes; i++) {
      const t = times[i]! * 1000;
      const waiting = r.createdAt <= t && (r.startedAt === null || r.startedAt > t) && (r.finishedAt === null || r.finishedAt > t);
      if (waiting) queueDepth[i]!++;
    }
    if (r.finishedAt === null) continue;
    const fb = bucketOf(r.finishedAt);
    if (fb < 0 || fb >= minutes) continue;
    if (r.status === 'failed') {
      if (!failures.has(r.tool)) failures.set(r.tool, new Array<number>(minutes).fill(0));
      failures.get(r.tool)![fb]!++;
    }
    if (r.status === 'complete' && r.startedAt !== null) {
      if (!durations.has(r.tool))
        durations.set(
          r.tool,
          Array.from({ length: minutes }, () => []),
        );
      durations.get(r.tool)![fb]!.push(r.finishedAt - r.startedAt);
    }
  }

  // The busiest tools only, so the charts stay legible.
  const top = new Set(
    [...toolCounts.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, maxTools)
      .map(([t]) => t),
  );
  const failuresByTool: Record<string, number[]> = {};
  for (const [tool, s] of failures) if (top.has(tool)) failuresByTool[tool] = s;
  const p50ByTool: Record<string, (number | null)[]> = {};
  const p95ByTool: Record<string, (number | null)[]> = {};
  for (const [tool, buckets] of durations) {
    if (!top.has(tool)) continue;
    const sorted = buckets.map((b) => [...b].sort((x, y) => x - y));
    p50ByTool[tool] = sorted.map((s) => quantile(s, 0.5));
    p95ByTool[tool] = sorted.map((s) => quantile(s, 0.95));
  }
  return { times, created, queueDepth, failuresByTool, p50ByTool, p95ByTool };
}
