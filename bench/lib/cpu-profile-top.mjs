#!/usr/bin/env node
// Top self-time functions of a V8 CPU profile (node --cpu-prof): `node bench/lib/cpu-profile-top.mjs
// file.cpuprofile [count]`. Self time is the sampled time a function was on top of the stack; the share
// is of every non-idle sample (idle and "(program)" apart), so shares compare between profiles of
// different lengths. "(garbage collector)" is V8's GC; "(program)" is native work outside JavaScript.
import fs from 'node:fs';
import path from 'node:path';

export function topSelf(profile, count = 25) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map();
  const deltas = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[i + 1] ?? 0));
  }
  const byFn = new Map();
  let idle = 0;
  let busy = 0;
  for (const [id, us] of selfUs) {
    const f = byId.get(id).callFrame;
    if (f.functionName === '(idle)') {
      idle += us;
      continue;
    }
    busy += us;
    const where = f.url ? `${path.basename(f.url)}:${f.lineNumber + 1}` : '';
    const key = `${f.functionName || '(anonymous)'} ${where}`.trim();
    byFn.set(key, (byFn.get(key) ?? 0) + us);
  }
  const rows = [...byFn].sort((a, b) => b[1] - a[1]).slice(0, count);
  return { busyMs: busy / 1000, idleMs: idle / 1000, rows: rows.map(([fn, us]) => ({ fn, ms: us / 1000, share: us / busy })) };
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const [file, count] = process.argv.slice(2);
  const t = topSelf(JSON.parse(fs.readFileSync(file, 'utf8')), Number(count ?? 25));
  process.stdout.write(`busy ${t.busyMs.toFixed(0)} ms, idle ${t.idleMs.toFixed(0)} ms\n`);
  for (const r of t.rows) process.stdout.write(`${(r.share * 100).toFixed(1).padStart(5)}%  ${r.ms.toFixed(0).padStart(7)} ms  ${r.fn}\n`);
}
