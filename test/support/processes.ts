// Which processes this test process started (directly or further down), read from /proc (Linux).
import fs from 'node:fs';

interface Proc {
  pid: number;
  ppid: number;
  comm: string;
  cmdline: string;
}

function readProcs(): Proc[] {
  const out: Proc[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      // "pid (comm) state ppid ...": comm may contain spaces and parentheses, so split at the last ')'.
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      const cmdline = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ');
      out.push({ pid: Number(name), ppid, comm, cmdline });
    } catch {
      // the process exited while we looked
    }
  }
  return out;
}

/** Every live descendant of `root` (default: this process), zombies excluded. */
export function descendants(root = process.pid): Proc[] {
  const procs = readProcs().filter((p) => !isZombie(p.pid));
  const found: Proc[] = [];
  const frontier = [root];
  while (frontier.length > 0) {
    const parent = frontier.pop()!;
    for (const p of procs) {
      if (p.ppid === parent) {
        found.push(p);
        frontier.push(p.pid);
      }
    }
  }
  return found;
}

/** Chromium browser processes (not renderers or helpers) started by this process. */
export function chromiumBrowsers(root = process.pid): Proc[] {
  return descendants(root).filter((p) => /chrom/i.test(p.comm) && !p.cmdline.includes('--type='));
}

/** All Chromium processes (browser, renderers, helpers) started by this process. */
export function chromiumProcesses(root = process.pid): Proc[] {
  return descendants(root).filter((p) => /chrom/i.test(p.comm) || /chrom/i.test(p.cmdline.split(' ')[0] ?? ''));
}

function isZombie(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

export interface TrackedProc extends Proc {
  /** Z: exited and not yet reaped by its parent. */
  zombie: boolean;
}

function startTime(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/**
 * Follows the Chromium processes of browsers whose environment holds `marker` (e.g. a private TMPDIR=…
 * every browser launched since inherited), scanning every `everyMs`. Chromium overwrites its children's
 * environment with their process titles, so a child is known by descent from a marked browser, seen while
 * that browser lived; once seen it is remembered (pid and start time), so a renderer re-parented to PID 1
 * after its browser was killed still counts, and so does a zombie.
 */
export class ChromiumTracker {
  private readonly seen = new Map<number, { start: string; proc: Proc }>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly marker: string,
    everyMs = 100,
  ) {
    this.scan();
    this.timer = setInterval(() => this.scan(), everyMs);
  }

  /** Marked browsers and their descendants now, remembered for leftovers(). */
  scan(): TrackedProc[] {
    const procs = readProcs();
    const roots = procs.filter((p) => {
      try {
        return fs.readFileSync(`/proc/${p.pid}/environ`, 'utf8').split('\0').includes(this.marker) && /chrom/i.test(p.cmdline.split(' ')[0] ?? '');
      } catch {
        return false;
      }
    });
    const found = new Map(roots.map((p) => [p.pid, p]));
    for (let grew = true; grew;) {
      grew = false;
      for (const p of procs) {
        if (!found.has(p.pid) && found.has(p.ppid)) {
          found.set(p.pid, p);
          grew = true;
        }
      }
    }
    for (const p of found.values()) {
      const start = startTime(p.pid);
      if (start && !this.seen.has(p.pid)) this.seen.set(p.pid, { start, proc: p });
    }
    return [...found.values()].map((p) => ({ ...p, zombie: isZombie(p.pid) }));
  }

  /** Every process ever seen that still exists (live, orphaned or zombie). */
  leftovers(): TrackedProc[] {
    this.scan();
    const out: TrackedProc[] = [];
    for (const [pid, { start, proc }] of this.seen) if (startTime(pid) === start) out.push({ ...proc, zombie: isZombie(pid) });
    return out;
  }

  get count(): number {
    return this.seen.size;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
