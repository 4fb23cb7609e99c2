// Our task row as an A2A Task. The result is one artifact with a data part (the tool's JSON) and, for
// screenshots and PDFs, a url part with the signed file link; a failure or cancellation carries its
// sentence as the status message. Contexts are not tracked: a task's contextId is its own id.
import { Role, TaskState, type Artifact, type Message, type Part, type Task } from '@a2a-js/sdk';
import type { TaskRow, TaskStatus } from '../store/port.js';
import { boundedResult } from '../engine/result-view.js';
import { AGENT_MAX_CHARS } from '../registry/bounded-result.js';
import type { ToolRegistry } from '../registry/registry.js';

const STATE: Record<TaskStatus, TaskState> = {
  pending: TaskState.TASK_STATE_SUBMITTED,
  running: TaskState.TASK_STATE_WORKING,
  complete: TaskState.TASK_STATE_COMPLETED,
  failed: TaskState.TASK_STATE_FAILED,
  cancelled: TaskState.TASK_STATE_CANCELED,
};

export function dataPart(value: unknown): Part {
  return { content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' };
}

export function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

function agentMessage(task: TaskRow, text: string): Message {
  return {
    messageId: `${task.id}-status`,
    contextId: task.id,
    taskId: task.id,
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function resultArtifact(task: TaskRow, registry: ToolRegistry): Artifact {
  // Page text is one window, as over MCP; GET /v1/tasks/{id}/result reads the other parts.
  const result = boundedResult(task, { registry, maxChars: AGENT_MAX_CHARS }) as Record<string, unknown> | null;
  const parts: Part[] = [dataPart(result)];
  if (result && typeof result.file_url === 'string' && typeof result.content_type === 'string') {
    parts.push({
      content: { $case: 'url', value: result.file_url },
      metadata: undefined,
      filename: String(result.file_id ?? ''),
      mediaType: result.content_type,
    });
  }
  return { artifactId: `${task.id}-result`, name: `${task.tool} result`, description: '', parts, metadata: undefined, extensions: [] };
}

export function toA2ATask(task: TaskRow, registry: ToolRegistry): Task {
  const timestamp = new Date(task.finishedAt ?? task.startedAt ?? task.createdAt).toISOString();
  const why =
    task.status === 'failed' || task.status === 'cancelled' ? (task.error ?? `The task ${task.status === 'failed' ? 'failed' : 'was cancelled'}.`) : undefined;
  return {
    id: task.id,
    contextId: task.id,
    status: { state: STATE[task.status], message: why ? agentMessage(task, why) : undefined, timestamp },
    artifacts: task.status === 'complete' ? [resultArtifact(task, registry)] : [],
    history: [],
    metadata: { tool: task.tool, attempts: task.attempts, ...(task.status === 'failed' && task.errorCode ? { error_code: task.errorCode } : {}) },
  };
}
