// The JSON body of a webhook, in the Standard Webhooks shape {type, timestamp, data}. Built at each attempt
// from the settled task or batch, which no longer change, so every attempt of one message sends the same
// facts (the timestamp is the event's own time, not the attempt's).
import type { OutboxMessage } from '../db/webhooks/webhook-store.js';
import { toTaskView } from '../engine/task-view.js';
import type { TaskStore } from '../store/port.js';
import { topicOfTool } from './options.js';

/** Results larger than this are left out of the body (read them at the task's URL). */
export const MAX_INLINE_RESULT_BYTES = 64 * 1024;

export interface WebhookPayload {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

export async function buildPayload(store: TaskStore, m: OutboxMessage, publicUrl: string): Promise<WebhookPayload> {
  const timestamp = new Date(m.createdAt).toISOString();
  if (m.subjectKind === 'batch') {
    const batch = await store.getBatch(m.subjectId);
    const counts = batch ? await store.batchCounts(m.subjectId) : null;
    return {
      type: `batch.${m.event}`,
      timestamp,
      data: {
        batch_id: m.subjectId,
        tool: batch?.tool ?? null,
        total: batch?.total ?? null,
        counts,
        batch_url: `${publicUrl}/v1/batches/${m.subjectId}`,
        results_url: `${publicUrl}/v1/batches/${m.subjectId}/results`,
      },
    };
  }
  const task = await store.getTask(m.subjectId);
  if (!task) return { type: `task.${m.event}`, timestamp, data: { task_id: m.subjectId, deleted: true } };
  const view = toTaskView(task);
  const resultJson = view.result === null ? 'null' : JSON.stringify(view.result);
  const inline = Buffer.byteLength(resultJson) <= MAX_INLINE_RESULT_BYTES;
  return {
    type: `${topicOfTool(task.tool)}.${m.event}`,
    timestamp,
    data: {
      ...view,
      result: inline ? view.result : null,
      ...(inline ? {} : { result_omitted: true }),
      task_url: `${publicUrl}/v1/tasks/${task.id}`,
    },
  };
}
