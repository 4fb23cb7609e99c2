// A task of yours as a resource: task://<task_id> reads as the same JSON task view REST returns, so a
// client that kept only a task id (or saw one in a log message) can fetch its state and result.
import type { ReadResourceResult, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Engine } from '../engine/engine.js';
import { toTaskView } from '../engine/task-view.js';
import { AGENT_MAX_CHARS } from '../registry/bounded-result.js';
import { RESOURCE_NOT_FOUND } from './artifacts.js';
import { ownsTask, type Caller } from '../web/caller.js';

const PREFIX = 'task://';
const TASK_ID = /^task_[0-9A-Za-z_-]{1,64}$/;

export const TASK_TEMPLATE: ResourceTemplate = {
  uriTemplate: `${PREFIX}{task_id}`,
  name: 'task',
  title: 'Task',
  description: 'One of your tasks: status, timestamps and, once finished, its result or error (JSON).',
  mimeType: 'application/json',
};

export function taskUri(taskId: string): string {
  return `${PREFIX}${taskId}`;
}

export function isTaskUri(uri: string): boolean {
  return uri.startsWith(PREFIX);
}

export async function readTaskResource(uri: string, d: { engine: Engine; caller: Caller }): Promise<ReadResourceResult> {
  const id = uri.slice(PREFIX.length);
  const task = TASK_ID.test(id) ? await d.engine.get(id) : null;
  if (!task || !ownsTask(d.caller, task)) throw new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri} (no such task of yours).`, { uri });
  return {
    contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(toTaskView(task, { registry: d.engine.registry, maxChars: AGENT_MAX_CHARS })) }],
  };
}

/** The caller's recent task ids starting with `typed`, newest first, for completing {task_id}. */
export async function recentTaskIds(d: { engine: Engine; caller: Caller }, typed: string, scan = 100): Promise<string[]> {
  const tasks = await d.engine.listByPayer(d.caller.payer, scan, undefined, 0);
  return tasks.map((t) => t.id).filter((id) => id.startsWith(typed));
}
