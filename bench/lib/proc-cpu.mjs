// CPU time of this process and everything it started, from /proc (Linux). A child that has exited and
// been waited for counts in its parent's cutime/cstime, so summing utime+stime+cutime+cstime over the
// live descendants, plus our own cutime+cstime, misses nothing between two readings.
import fs from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

function readStat(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: rest[0], ppid: Number(rest[1]), own: Number(rest[11]) + Number(rest[12]), reaped: Number(rest[13]) + Number(rest[14]) };
}

function processTree(root) {
  const byParent = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const s = readStat(name);
      if (!byParent.has(s.ppid)) byParent.set(s.ppid, []);
      byParent.get(s.ppid).push({ pid: Number(name), ...s });
    } catch {
      // exited meanwhile
    }
  }
  const out = [];
  const todo = [root];
  while (todo.length) {
    for (const c of byParent.get(todo.pop()) ?? []) {
      out.push(c);
      todo.push(c.pid);
    }
  }
  return out;
}

/** Descendant process ids of `root` (zombies excluded). */
/** CPU seconds (user + system) one process has used so far; undefined once it is gone. */
export function cpuSecondsOf(pid) {
  try {
    return (readStat(pid).own * TICK_MS) / 1000;
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds of a whole process tree not started by us (a database server): the own and reaped time of
 * its root and of every live descendant. A process that exits between two readings moves into its
 * parent's reaped time (which holds its own reaped time too), so differences between readings lose
 * nothing its parent waited for.
 */
export function treeCpuSeconds(root) {
  try {
    const r = readStat(root);
    const live = processTree(root).filter((p) => p.state !== 'Z');
    return ((r.own + r.reaped + live.reduce((sum, p) => sum + p.own + p.reaped, 0)) * TICK_MS) / 1000;
  } catch {
    return undefined;
  }
}

export function descendants(root = process.pid) {
  return processTree(root)
    .filter((p) => p.state !== 'Z')
    .map((p) => p.pid);
}

/**
 * Measures the CPU of this process and of every process it started, including those that exit meanwhile.
 * A process's own time is read from /proc while it lives; when it exits, its parent's cutime/cstime grows by
 * its final total, so that total replaces what was read of it (exact for everything its parent waited for).
 * Processes are read every `everyMs` (a short-lived one nobody we watch waits for may lose its last slice).
 */
export class CpuMeter {
  constructor(everyMs = 200) {
    this.everyMs = everyMs;
  }

  start() {
    this.seen = new Map();
    this.selfReaped0 = readStat(process.pid).reaped;
    this.cpu0 = process.cpuUsage();
    this.sample();
    this.timer = setInterval(() => this.sample(), this.everyMs);
    this.timer.unref?.();
  }

  sample() {
    for (const p of processTree(process.pid)) {
      const prev = this.seen.get(p.pid);
      if (prev) {
        prev.own = p.own;
        prev.reaped = p.reaped;
        prev.ppid = p.ppid;
      } else {
        // Present at the first reading: only what it uses from now counts.
        const first = this.started ? { own: 0, reaped: 0 } : { own: p.own, reaped: p.reaped };
        this.seen.set(p.pid, { firstOwn: first.own, firstReaped: first.reaped, own: p.own, reaped: p.reaped, ppid: p.ppid });
      }
    }
    this.started = true;
  }

  /** { node, children, total } CPU ms since start(). */
  stop() {
    clearInterval(this.timer);
    this.sample();
    const alive = new Set(processTree(process.pid).map((p) => p.pid));
    alive.add(process.pid);
    const selfReaped = readStat(process.pid).reaped - this.selfReaped0;
    let ticks = selfReaped;
    for (const [pid, p] of this.seen) {
      ticks += p.own - p.firstOwn + (p.reaped - p.firstReaped);
      // Exited and waited for by a parent still here: the parent's reaped time (counted above) holds its
      // whole total, including what was counted of it and what it used before start().
      if (!alive.has(pid) && alive.has(p.ppid)) ticks -= p.own + p.reaped;
    }
    const u = process.cpuUsage(this.cpu0);
    const node = (u.user + u.system) / 1000;
    const children = ticks * TICK_MS;
    return { node, children, total: node + children };
  }
}

/** CPU ms of live descendants by Chromium process type (browser, renderer, gpu-process, utility...). */
export function cpuByProcessType(root = process.pid) {
  const out = {};
  for (const p of processTree(root)) {
    let type = 'browser';
    try {
      const cmd = fs.readFileSync(`/proc/${p.pid}/cmdline`, 'utf8');
      if (!/chrom/i.test(cmd.split('\0')[0] ?? '')) continue;
      type = /--type=([a-z-]+)/.exec(cmd)?.[1] ?? 'browser';
      const sub = /--utility-sub-type=([\w.]+)/.exec(cmd)?.[1];
      if (sub) type = sub.split('.').pop();
    } catch {
      continue;
    }
    // Renderers are forked by the zygote, which collects their CPU when they exit.
    if (type === 'zygote') type = 'renderer';
    out[type] = (out[type] ?? 0) + (p.own + p.reaped) * TICK_MS;
  }
  return out;
}
