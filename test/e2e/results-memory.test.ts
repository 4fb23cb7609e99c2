// Reading big results keeps the API process's memory bounded (issue 26, G2). A batch of 1,000 copies of
// one input whose result is 2 MB (price: one task), and 100 tasks of 2 MB each, are read through the
// built `serve` (no workers: the test completes the tasks itself through the store, on the same SQLite
// file): its results pages in both formats and GET /v1/tasks?limit=100. The assertion is on the
// server's peak resident memory (VmHWM, reset before the reads), not on time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/db/tasks/open-store.js';
import type { TaskStore } from '../../src/store/port.js';
import { runCli, spawnCli, stopChild, waitForHttp } from '../support/cli.js';
import { freePort } from '../support/free-port.js';

const MB = 1024 * 1024;
let child: ChildProcess;
let store: TaskStore;
let url: string;
let key: string;
let dataDir: string;

/** A dns.lookup-shaped result of about 2 MB. */
function bigResult(n: number) {
  return { domain: `d${n}.test`, exists: true, records: { TXT: Array.from({ length: 2000 }, (_, i) => `${n}-${i}-${'x'.repeat(1000)}`) } };
}

function memoryKb(field: 'VmRSS' | 'VmHWM'): number {
  const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1]);
}

/** Completes every pending task, as a worker would, with a 2 MB result. */
async function completeAll(): Promise<void> {
  for (;;) {
    const claimed = await store.claimTasks({ owner: 'test-worker', limit: 50, leaseMs: 60_000, now: Date.now() });
    if (claimed.length === 0) return;
    for (const [i, t] of claimed.entries()) await store.completeTask(t.id, 'test-worker', bigResult(i), Date.now());
  }
}

const get = (p: string) => fetch(`${url}${p}`, { headers: { authorization: `Bearer ${key}` } });

async function createBatch(inputs: unknown[]): Promise<string> {
  const res = await fetch(`${url}/v1/tools/dns.lookup/batches`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ inputs }),
  });
  expect(res.status).toBe(202);
  return ((await res.json()) as { batch_id: string }).batch_id;
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-results-mem-'));
  const env = { DATA_DIR: dataDir, SECRET: 's'.repeat(40), LOG_LEVEL: 'warn', LEADS_PORT: '0' };
  const created = runCli(['keys', 'create', '--credits', '100'], { ...env, LOG_LEVEL: 'silent' });
  expect(created.status, created.stderr).toBe(0);
  key = created.stdout.trim();
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  child = spawnCli(['serve', '--no-workers', '--port', String(port)], env);
  await waitForHttp(`${url}/healthz`);
  store = await openStore(loadConfig({ ...env }));
}, 60_000);

afterAll(async () => {
  if (child) await stopChild(child, 'SIGKILL');
  await store?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('results of 2 MB each', () => {
  it('1,000 identical batch items and a 100-task listing keep the API process under +200 MB', async () => {
    const batchId = await createBatch(Array.from({ length: 1000 }, () => ({ domain: 'same.test' })));
    await createBatch(Array.from({ length: 100 }, (_, i) => ({ domain: `d${i}.test` })));
    await completeAll();

    fs.writeFileSync(`/proc/${child.pid}/clear_refs`, '5'); // resets VmHWM to the current RSS
    const before = memoryKb('VmRSS');

    // The page asked for is the whole batch (limit=1000): it comes back cut by its byte budget, with the
    // cursor of the next page; following it reads on from there, and every line is whole.
    let cursor: string | null = '0';
    let lines = 0;
    for (let pages = 0; cursor !== null && pages < 12; pages++) {
      const res = await get(`/v1/batches/${batchId}/results?format=jsonl&limit=1000&cursor=${cursor}`);
      expect(res.status).toBe(200);
      const body = await res.text();
      const page = body.trimEnd().split('\n');
      for (const l of page) {
        const line = JSON.parse(l) as { index: number; status: string; result: { records: { TXT: string[] } } };
        expect(line).toMatchObject({ index: lines, status: 'complete' });
        expect(line.result.records.TXT).toHaveLength(2000);
        lines++;
      }
      expect(body.length).toBeLessThan(16 * MB);
      cursor = res.headers.get('x-next-cursor');
      expect(cursor).toBe(String(lines));
    }
    const csv = await get(`/v1/batches/${batchId}/results?format=csv&limit=1000`);
    expect(csv.status).toBe(200);
    const csvBody = await csv.text();
    expect(csvBody.startsWith('index,task_id,status,error,result\r\n')).toBe(true);
    expect(csvBody.length).toBeLessThan(24 * MB);
    expect(csv.headers.get('x-next-cursor')).toMatch(/^\d+$/);

    const listing = await get('/v1/tasks?limit=100');
    expect(listing.status).toBe(200);
    const listed = (await listing.json()) as { tasks: { status: string; result: unknown; result_omitted?: boolean }[]; count: number };
    expect(listed.count).toBe(100);
    expect(listed.tasks.every((t) => t.status === 'complete' && (t.result !== null || t.result_omitted === true))).toBe(true);
    expect(listed.tasks.some((t) => t.result_omitted)).toBe(true);

    const peakGrowthMb = (memoryKb('VmHWM') - before) / 1024;
    process.stderr.write(`results-memory: peak growth ${peakGrowthMb.toFixed(1)} MB\n`);
    expect(peakGrowthMb).toBeLessThan(200);
  }, 300_000);
});
