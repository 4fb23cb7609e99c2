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
export function descendants(root = process.pid) {
  return processTree(root)
    .filter((p) => p.state !== 'Z')
    .map((p) => p.pid);
}

/** CPU ms: `node` (this process) and `children` (every process it started, live or exited). */
export function cpuNow() {
  const self = readStat(process.pid);
  let children = self.reaped;
  for (const p of processTree(process.pid)) children += p.own + p.reaped;
  const u = process.cpuUsage();
  return { node: (u.user + u.system) / 1000, children: children * TICK_MS };
}

export function cpuSince(start) {
  const now = cpuNow();
  return { node: now.node - start.node, children: now.children - start.children, total: now.node - start.node + now.children - start.children };
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
