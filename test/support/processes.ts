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
