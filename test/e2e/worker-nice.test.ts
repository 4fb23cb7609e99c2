// WORKER_NICE: the built `worker` lowers the CPU priority of every one of its threads (Linux keeps a nice
// value per thread), so API nodes sharing its cores answer first; unset, the worker keeps its parent's.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { spawnCli, stopChild } from '../support/cli.js';

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(children.map((c) => stopChild(c, 'SIGKILL')));
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** Starts `worker` and resolves with its pid and the JSON of its "worker started" line. */
async function startWorker(extra: Record<string, string>): Promise<{ pid: number; started: Record<string, unknown> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-nice-'));
  dirs.push(dataDir);
  const child = spawnCli(['worker'], { DATA_DIR: dataDir, SECRET: 's'.repeat(40), LOG_LEVEL: 'info', ...extra });
  children.push(child);
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  for (let i = 0; i < 300 && !stderr.includes('agent-utility worker started'); i++) await new Promise((r) => setTimeout(r, 100));
  const line = stderr.split('\n').find((l) => l.includes('agent-utility worker started'));
  expect(line, stderr).toBeDefined();
  return { pid: child.pid!, started: JSON.parse(line!) as Record<string, unknown> };
}

/** The nice value of each thread of `pid` (field 19 of /proc/PID/task/TID/stat). */
function threadNices(pid: number): number[] {
  return fs.readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
    } catch {
      return []; // the thread ended meanwhile
    }
  });
}

describe('WORKER_NICE', () => {
  it('is refused outside 0–19, naming the variable', () => {
    expect(() => loadConfig({ WORKER_NICE: '20' })).toThrow(/WORKER_NICE/);
    expect(() => loadConfig({ WORKER_NICE: '-5' })).toThrow(/WORKER_NICE/);
    expect(loadConfig({}).engine.nice).toBe(0);
  });

  it.runIf(process.platform === 'linux')('lowers the priority of every thread of the worker', async () => {
    const target = Math.max(7, os.getPriority() + 1);
    const { pid, started } = await startWorker({ WORKER_NICE: String(target) });
    expect(started.nice).toBe(target);
    const nices = threadNices(pid);
    // The main thread, V8's and libuv's threads: more than one, and every one lowered.
    expect(nices.length).toBeGreaterThan(1);
    expect(
      nices.every((n) => n === target),
      `thread nice values ${nices.join(', ')}`,
    ).toBe(true);
  });

  it.runIf(process.platform === 'linux')('leaves the priority alone when unset', async () => {
    const own = os.getPriority();
    const { pid, started } = await startWorker({});
    expect(started.nice).toBe(own);
    expect(threadNices(pid).every((n) => n === own)).toBe(true);
  });
});
