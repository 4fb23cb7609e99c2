// The CallToolResult of a failed call: a leaf shared by errors.ts (a tool error met while calling) and
// call-result.ts (a task that failed), which otherwise reach each other through artifacts.ts.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** _meta key on results naming the engine task, so REST or the tasks API can find it again. */
export const TASK_META_KEY = 'agent-utility/task_id';

/** _meta key naming a failed task's error_code (BLOCKED_BY_SITE…), which also leads the text. */
export const ERROR_CODE_META_KEY = 'agent-utility/error_code';

export function errorResult(message: string, taskId?: string, errorCode?: string | null): CallToolResult {
  const meta = { ...(taskId ? { [TASK_META_KEY]: taskId } : {}), ...(errorCode ? { [ERROR_CODE_META_KEY]: errorCode } : {}) };
  return {
    content: [{ type: 'text', text: errorCode ? `${errorCode}: ${message}` : message }],
    isError: true,
    ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}),
  };
}
