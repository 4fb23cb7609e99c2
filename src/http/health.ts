// What /healthz says: "ok"; "degraded" (still serving, but an operator should look: the disk under
// DATA_DIR nearly full, the store recovering from an outage) with the reasons; or "unavailable" (503:
// the store does not answer, so nothing can be created or read).
import fs from 'node:fs/promises';
import type { Engine } from '../engine/engine.js';
import { VERSION } from '../version.js';

export interface HealthProblem {
  part: 'store' | 'disk';
  problem: string;
}

/** Free space on DATA_DIR's file system, or undefined where it cannot be read. */
async function freeBytes(dir: string): Promise<{ free: number; total: number } | undefined> {
  try {
    const s = await fs.statfs(dir);
    return { free: s.bavail * s.bsize, total: s.blocks * s.bsize };
  } catch {
    return undefined;
  }
}

/** A part of the body another layer adds (the front doors: whether Chromium runs with its sandbox, and why). */
export type HealthPart = () => Record<string, unknown>;

const mb = (bytes: number) => `${Math.floor(bytes / (1024 * 1024))} MB`;

export async function healthReport(engine: Engine, parts: readonly HealthPart[] = []): Promise<{ status: number; body: Record<string, unknown> }> {
  const { store, config } = engine;
  const problems: HealthProblem[] = [];
  const disk = config.diskMinFreeBytes > 0 ? await freeBytes(config.dataDir) : undefined;
  if (disk && disk.free < config.diskMinFreeBytes) {
    problems.push({
      part: 'disk',
      problem: `${mb(disk.free)} free of ${mb(disk.total)} under DATA_DIR (below DISK_MIN_FREE_MB, ${mb(config.diskMinFreeBytes)}).`,
    });
  }
  try {
    // The queue alone (its indexes): a probe every few seconds must not read every task the store keeps.
    const queue = await store.queueCounts();
    const outage = store.faults?.current();
    if (outage) problems.push({ part: 'store', problem: `recovering from an outage (${outage.reason}): ${outage.detail}` });
    return {
      status: 200,
      body: {
        status: problems.length > 0 ? 'degraded' : 'ok',
        version: VERSION,
        store: store.dialect,
        workers: engine.hasWorkers,
        queue_depth: queue.queueDepth,
        ...Object.assign({}, ...parts.map((part) => part())),
        ...(problems.length > 0 ? { problems } : {}),
      },
    };
  } catch (err) {
    const outage = store.faults?.current();
    const why = outage ? `${outage.reason}: ${outage.detail}` : err instanceof Error ? err.message : String(err);
    problems.unshift({ part: 'store', problem: `does not answer (${why})` });
    return { status: 503, body: { status: 'unavailable', version: VERSION, store: store.dialect, error: 'The store does not answer.', problems } };
  }
}
