// The CallToolResult of a failed call: a leaf shared by errors.ts (a tool error met while calling) and
// call-result.ts (a task that failed), which otherwise reach each other through artifacts.ts.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** _meta key on results naming the engine task, so REST or the tasks API can find it again. */
export const TASK_META_KEY = 'agent-utility/task_id';

export function errorResult(message: string, taskId?: string): CallToolResult {
  return {
    content: [{ type: 'text', text: message }],
    isError: true,
    ...(taskId ? { _meta: { [TASK_META_KEY]: taskId } } : {}),
  };
}
