// SQLite and the local artifact store on a full disk (a small tmpfs filled to the last block): creation
// answers 503 STORE_UNAVAILABLE naming the full disk (never a 500), /healthz says degraded and why, the
// database passes PRAGMA integrity_check, and once space returns the service carries on by itself: tasks
// accepted before the disk filled complete (their outcomes waited), each charged once. An artifact that
// cannot be saved fails its task with a clear message, refunded, and leaves no partial file.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { publishArtifact } from '../../src/artifacts/publish.js';
import { artifactStoreService } from '../../src/artifacts/service.js';
import { defineTool } from '../../src/registry/define-tool.js';
import { api, startTestService, type TestService } from '../support/service.js';
import { echoTool } from '../support/test-tools.js';
import { mountTmpfs, type Tmpfs } from '../support/tmpfs.js';

const artifactTool = defineTool({
  name: 'test.artifact',
  title: 'Artifact',
  description: 'Stores `bytes` bytes as an artifact.',
  input: z.object({
    bytes: z
      .number()
      .int()
      .min(1)
      .max(8 * 1024 * 1024),
  }),
  output: z.object({ file_id: z.string(), file_url: z.string() }),
  price: '0.01',
  annotations: { readOnlyHint: true, openWorldHint: false },
  timeoutMs: 10_000,
  example: { bytes: 10 },
  run: async (ctx, input) => {
    const link = await publishArtifact(ctx, new Uint8Array(input.bytes).fill(7), 'application/octet-stream');
    return { file_id: link.file_id, file_url: link.file_url };
  },
});

const PRICE = 10_000;
let svc: TestService | undefined;
let disk: Tmpfs | undefined;
afterEach(async () => {
  await svc?.close();
  svc = undefined;
  disk?.unmount();
  disk = undefined;
});

function mountOrSkip(dir: string, bytes: number, skip: (note: string) => void): Tmpfs {
  const m = mountTmpfs(dir, bytes);
  if ('error' in m) {
    skip(m.error);
    throw new Error(m.error);
  }
  return (disk = m);
}

async function settled(t: { id: string; token: string }) {
  let polled = await api(svc!.url, 'GET', `/v1/tasks/${t.id}?wait=20`, { token: t.token });
  while (polled.status === 503 || polled.body.status === 'running' || polled.body.status === 'pending') {
    polled = await api(svc!.url, 'GET', `/v1/tasks/${t.id}?wait=20`, { token: t.token });
  }
  return polled;
}

/** The key's charges and refunds (its opening grant aside). */
async function ledger(keyId: string) {
  const rows = await (svc!.rt.store as unknown as { db: { all<R>(sql: string, v: unknown[]): Promise<R[]> } }).db.all<{ reason: string; n: number }>(
    'SELECT reason, count(*) AS n FROM credit_ledger WHERE key_id = $1 GROUP BY reason',
    [keyId],
  );
  return Object.fromEntries(rows.filter((r) => r.reason !== 'grant').map((r) => [r.reason, Number(r.n)]));
}

describe('full disk', () => {
  it('SQLite: creation answers 503 while the disk is full, nothing is corrupted, and the service recovers when space returns', async (ctx) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-full-'));
    const tmpfs = mountOrSkip(dataDir, 16 * 1024 * 1024, (note) => ctx.skip(note));
    svc = await startTestService(
      { DATA_DIR: dataDir, DISK_MIN_FREE_MB: '1', RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_KEY: '0', BODY_LIMIT_BYTES: String(1024 * 1024) },
      { tools: [echoTool] },
    );
    const { key, id: keyId } = await svc.createKey(100);
    expect((await api(svc.url, 'GET', '/healthz')).body.status).toBe('ok');

    const filler = tmpfs.fill();
    const health = await api(svc.url, 'GET', '/healthz');
    expect(health.body.status).toMatch(/^(degraded|unavailable)$/);
    expect(health.body.problems).toContainEqual(expect.objectContaining({ part: 'disk', problem: expect.stringMatching(/free of .* under DATA_DIR/) }));

    // Large inputs until the database cannot grow: every answer a task or a clear 503.
    const accepted: { id: string; token: string }[] = [];
    let refusal: Awaited<ReturnType<typeof api>> | undefined;
    const big = 'x'.repeat(48 * 1024);
    for (let i = 0; i < 2_000 && !refusal; i++) {
      const r = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, body: { value: `${i}${big}` } });
      if (r.status === 202) accepted.push({ id: r.body.task_id, token: r.body.poll_token });
      else refusal = r;
    }
    expect(refusal?.status).toBe(503);
    expect(refusal!.body).toMatchObject({ code: 'STORE_UNAVAILABLE', retry: true });
    expect(refusal!.body.error).toMatch(/disk is full/);
    expect(Number(refusal!.headers.get('retry-after'))).toBeGreaterThan(0);
    const metrics = await api(svc.url, 'GET', '/metrics');
    expect(metrics.body).toMatch(/^agent_utility_store_errors_total\{reason="disk_full"\} [1-9]\d*$/m);

    const check = new Database(path.join(dataDir, 'agent-utility.db'), { readonly: true });
    try {
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      check.close();
    }

    fs.unlinkSync(filler);
    const after = await api(svc.url, 'POST', '/v1/tools/test.echo/tasks', { token: key, body: { value: 'after' } });
    expect(after.status).toBe(202);
    accepted.push({ id: after.body.task_id, token: after.body.poll_token });
    for (const t of accepted) {
      const done = await settled(t);
      expect(done.body.status).toBe('complete');
    }
    expect(await ledger(keyId)).toEqual({ charge: accepted.length });
    expect((await svc.rt.store.findKey(keyId))!.balanceMicros).toBe(100_000_000 - accepted.length * PRICE);
    expect((await api(svc.url, 'GET', '/healthz')).body.status).toBe('ok');
  });

  it('artifact store: a file that does not fit fails its task with a clear message, refunded, with no partial file left', async (ctx) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-full-art-'));
    const artifacts = path.join(dataDir, 'artifacts');
    const tmpfs = mountOrSkip(artifacts, 2 * 1024 * 1024, (note) => ctx.skip(note));
    svc = await startTestService({ DATA_DIR: dataDir, TASK_MAX_ATTEMPTS: '1', RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_KEY: '0' }, { tools: [artifactTool] });
    const { key, id: keyId } = await svc.createKey(1);
    const filler = tmpfs.fill();

    const refused = await api(svc.url, 'POST', '/v1/tools/test.artifact/tasks', { token: key, body: { bytes: 256 * 1024 } });
    expect(refused.status).toBe(202);
    const failed = await settled({ id: refused.body.task_id, token: refused.body.poll_token });
    expect(failed.body.status).toBe('failed');
    expect(failed.body.error).toMatch(/file storage is full/);
    expect(fs.readdirSync(artifacts).filter((f) => f !== path.basename(filler))).toEqual([]);
    expect(await ledger(keyId)).toEqual({ charge: 1, refund: 1 });

    fs.unlinkSync(filler);
    const stored = await api(svc.url, 'POST', '/v1/tools/test.artifact/tasks', { token: key, body: { bytes: 256 * 1024 } });
    const done = await settled({ id: stored.body.task_id, token: stored.body.poll_token });
    expect(done.body.status).toBe('complete');
    const file = await (await svc.rt.scope.use(artifactStoreService)).get(done.body.result.file_id);
    expect(file?.body.byteLength).toBe(256 * 1024);
  });
});
