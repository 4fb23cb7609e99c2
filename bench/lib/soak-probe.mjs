// Preloaded into every process of the soak bench (node --import): every SOAK_PROBE_MS it appends one JSON
// line to SOAK_PROBE_FILE with the process's RSS (and V8 heap used/total, external memory), CPU used so far, event-loop delay (p50/p99/max over the interval, from
// perf_hooks), active handles and open file descriptors. Read by bench/soak.bench.mjs.
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.SOAK_PROBE_FILE;
if (file) {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  const every = Number(process.env.SOAK_PROBE_MS ?? 10_000);
  const timer = setInterval(() => {
    let fds = -1;
    try {
      fds = fs.readdirSync('/proc/self/fd').length;
    } catch {
      // not Linux
    }
    const line = {
      t: Date.now(),
      name: process.env.SOAK_NAME ?? String(process.pid),
      rssMb: Math.round(process.memoryUsage.rss() / 2 ** 20),
      // V8 heap in use and native (external: buffers, SQLite's statements) apart, to tell a JS leak from a
      // grown-but-idle heap or native growth when RSS rises.
      ...(() => {
        const m = process.memoryUsage();
        return { heapUsedMb: Math.round(m.heapUsed / 2 ** 20), heapTotalMb: Math.round(m.heapTotal / 2 ** 20), externalMb: Math.round(m.external / 2 ** 20) };
      })(),
      // CPU (user + system) since the process started: the bench divides its growth by the tasks of the interval.
      cpuMs: (() => {
        const c = process.cpuUsage();
        return Math.round((c.user + c.system) / 1000);
      })(),
      eldP50Ms: h.percentile(50) / 1e6,
      eldP99Ms: h.percentile(99) / 1e6,
      eldMaxMs: h.max / 1e6,
      handles: process.getActiveResourcesInfo().length,
      fds,
    };
    h.reset();
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  }, every);
  timer.unref();
}
