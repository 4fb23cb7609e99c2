// Lowers this process's CPU priority (raises its nice value) for `agent-utility worker`, so that where
// API nodes and workers share cores the scheduler answers creations and polls first and the tasks take
// what is left. On Linux a nice value belongs to each thread, and a new thread inherits its creator's:
// the threads already running (V8's platform threads, libuv's pool if started) are set one by one from
// /proc/self/task, and those started later inherit it from the main thread. Elsewhere the process's
// priority is set. Only ever lowered: a thread already nicer than asked is left as it is (raising a
// priority back needs privileges).
import fs from 'node:fs';
import os from 'node:os';

/** The thread ids of this process (Linux), or [0] (this process) where they cannot be listed. */
function threadIds(): number[] {
  try {
    return fs
      .readdirSync('/proc/self/task')
      .map(Number)
      .filter((tid) => Number.isInteger(tid) && tid > 0);
  } catch {
    return [0];
  }
}

/** Sets every thread of this process to at least `nice` (0–19); answers the threads changed. */
export function lowerCpuPriority(nice: number): number {
  if (!Number.isInteger(nice) || nice <= 0) return 0;
  const target = Math.min(19, nice);
  let changed = 0;
  for (const tid of threadIds()) {
    try {
      if (os.getPriority(tid) >= target) continue;
      os.setPriority(tid, target);
      changed++;
    } catch {
      // The thread ended between the listing and the call (ESRCH): nothing to lower.
    }
  }
  return changed;
}
