// Pieces of the Chromium crash-storm test and bench: a killer that SIGKILLs a random Chromium process
// (the browser itself or a renderer) every few hundred milliseconds, and each task's charges and refunds
// read from the ledger.
import type { TaskStore } from '../../src/store/port.js';
import type { ChromiumTracker } from './processes.js';

export interface StormKills {
  browser: number;
  renderer: number;
}

export interface CrashStorm {
  /** Stops killing (once `atLeast` of each kind were killed) and says how many of each kind were. */
  stop(): Promise<StormKills>;
}

/**
 * Kills one live Chromium process the tracker follows at random intervals in `everyMs`: the browser
 * process with probability `browserShare`, otherwise a renderer.
 */
export function startCrashStorm(tracker: ChromiumTracker, opts: { everyMs: [number, number]; browserShare: number; atLeast?: StormKills }): CrashStorm {
  const kills: StormKills = { browser: 0, renderer: 0 };
  const atLeast = opts.atLeast ?? { browser: 0, renderer: 0 };
  const short = (): 'browser' | 'renderer' | undefined =>
    kills.browser < atLeast.browser ? 'browser' : kills.renderer < atLeast.renderer ? 'renderer' : undefined;
  let stopped = false;
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  const loop = (async () => {
    // How fast tasks finish depends on the machine's load, so a storm asked to stop goes on (the pool's
    // ready tabs keep renderers alive) until it has killed at least `atLeast` of each kind.
    while (!stopped && !(stopping && short() === undefined)) {
      const [lo, hi] = opts.everyMs;
      await new Promise<void>((resolve) => {
        timer = setTimeout(resolve, lo + Math.random() * (hi - lo));
      });
      if (stopped || (stopping && short() === undefined)) break;
      const live = tracker.scan().filter((p) => !p.zombie);
      const browsers = live.filter((p) => !p.cmdline.includes('--type='));
      const renderers = live.filter((p) => p.cmdline.includes('--type=renderer'));
      const kind = (stopping ? short() : undefined) ?? (Math.random() < opts.browserShare ? 'browser' : 'renderer');
      const pool = kind === 'browser' ? browsers : renderers;
      const victim = pool[Math.floor(Math.random() * pool.length)];
      if (!victim) continue;
      try {
        process.kill(victim.pid, 'SIGKILL');
        kills[kind]++;
      } catch {
        // it went away by itself in the meantime
      }
    }
  })();
  return {
    async stop() {
      stopping = true;
      await loop;
      stopped = true;
      clearTimeout(timer);
      return kills;
    },
  };
}

/** Per task: how many charge and refund rows the key's ledger holds. */
export async function ledgerByTask(store: TaskStore, keyId: string): Promise<Map<string, Record<string, number>>> {
  const db = (store as unknown as { db: { all<R>(sql: string, v: unknown[]): Promise<R[]> } }).db;
  const rows = await db.all<{ task_id: string; reason: string; n: number }>(
    'SELECT task_id, reason, count(*) AS n FROM credit_ledger WHERE key_id = $1 AND task_id IS NOT NULL GROUP BY task_id, reason',
    [keyId],
  );
  const out = new Map<string, Record<string, number>>();
  for (const r of rows) out.set(r.task_id, { ...out.get(r.task_id), [r.reason]: Number(r.n) });
  return out;
}
