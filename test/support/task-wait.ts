// One way for REST tests to wait for a task to end: long-poll its URL until it leaves pending/running,
// with a bound so a task that never ends fails the test with its id instead of hanging until the
// test's timeout.
import { api } from './service.js';

export interface EndedTask {
  id: string;
  status: string;
  body: any;
}

const UNFINISHED = new Set(['pending', 'running']);

/**
 * Long-polls `/v1/tasks/<id>` (each poll waits up to `waitSeconds` on the server) until the task is neither
 * pending nor running. Throws after `maxPolls` polls, naming the task and its last status.
 */
export async function settleTask(
  base: string,
  t: { id: string; token: string },
  { waitSeconds = 20, maxPolls = 30 }: { waitSeconds?: number; maxPolls?: number } = {},
): Promise<EndedTask> {
  let last = 'unknown';
  for (let i = 0; i < maxPolls; i++) {
    const polled = await api(base, 'GET', `/v1/tasks/${t.id}?wait=${waitSeconds}`, { token: t.token });
    if (polled.status === 200 && !UNFINISHED.has(polled.body.status)) return { id: t.id, status: polled.body.status, body: polled.body };
    last = polled.status === 200 ? polled.body.status : `HTTP ${polled.status}`;
  }
  throw new Error(`task ${t.id} did not end after ${maxPolls} polls of ${waitSeconds} s (last: ${last})`);
}
