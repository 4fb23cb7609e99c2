// Cancelling over REST answers what is true: a pending task is cancelled at once (200); a running task
// answers 202 "running" with cancel_requested until its worker stops it, then reads "cancelled" (refunded).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../src/registry/define-tool.js';
import { api, startTestService, type TestService } from '../support/service.js';

/** Runs until it is aborted (its timeout is far away), so the test controls when it stops. */
const blockTool = defineTool({
  name: 'test.block',
  title: 'Block',
  description: 'Waits until cancelled.',
  input: z.object({}),
  output: z.object({ done: z.boolean() }),
  price: '0.01',
  annotations: { readOnlyHint: true, openWorldHint: false },
  timeoutMs: 120_000,
  example: {},
  run: (ctx) =>
    new Promise((_resolve, reject) => {
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error), { once: true });
    }),
});

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({}, { tools: [blockTool] });
});
afterAll(async () => {
  await svc?.close();
});

/** Reads the task until `done` says so (bounded: fails after 200 reads, never asserts a duration). */
async function pollUntil(url: string, token: string, done: (b: { status: string }) => boolean): Promise<Record<string, unknown>> {
  for (let i = 0; i < 200; i++) {
    const r = await api(svc.url, 'GET', `${url}?wait=1`, { token });
    if (done(r.body)) return r.body;
  }
  throw new Error('the task never reached the expected state');
}

describe('POST /v1/tasks/{id}/cancel', () => {
  it('a running task: 202 with status running and cancel_requested, then cancelled and refunded', async () => {
    const { key, id } = await svc.createKey(1);
    const created = await api(svc.url, 'POST', '/v1/tools/test.block/tasks', { token: key, body: {} });
    expect(created.status).toBe(202);
    const token = created.body.poll_token as string;
    await pollUntil(created.body.poll_url, token, (b) => b.status === 'running');

    const cancel = await api(svc.url, 'POST', `/v1/tasks/${created.body.task_id}/cancel`, { token });
    if (cancel.body.status === 'running') {
      expect(cancel.status).toBe(202);
      expect(cancel.body.cancel_requested).toBe(true);
    } else {
      // The worker may already have stopped it by the time the answer is written.
      expect(cancel.status).toBe(200);
      expect(cancel.body.status).toBe('cancelled');
    }
    const final = await pollUntil(created.body.poll_url, token, (b) => b.status !== 'running');
    expect(final.status).toBe('cancelled');
    expect(final.cancel_requested).toBeUndefined();
    expect((await svc.rt.store.findKey(id))!.balanceMicros).toBe(1_000_000);
  });

  it('a finished task is unchanged (200)', async () => {
    const { key } = await svc.createKey(1);
    const created = await api(svc.url, 'POST', '/v1/tools/test.block/tasks', { token: key, body: {} });
    const token = created.body.poll_token as string;
    await api(svc.url, 'POST', `/v1/tasks/${created.body.task_id}/cancel`, { token });
    await pollUntil(created.body.poll_url, token, (b) => b.status === 'cancelled');
    const again = await api(svc.url, 'POST', `/v1/tasks/${created.body.task_id}/cancel`, { token });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('cancelled');
  });
});
