// A task's result, one window at a time: agent-utility://tasks/<task_id>/result?offset=…&max_chars=…
// reads the stored result of a finished task of yours (no second render, no charge). A bounded tool's
// call result links the next part with such a URI; a resources/read of it returns the same JSON the call
// would have, cut at that range.
import type { ReadResourceResult, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { Engine } from '../engine/engine.js';
import { boundedResult, type ReadRange } from '../engine/result-view.js';
import { AGENT_MAX_CHARS, readRangeQuery, toReadRange } from '../registry/bounded-result.js';
import { parseOrInvalid } from '../registry/input-errors.js';
import { ownsTask, type Caller } from '../web/caller.js';
import { RESOURCE_NOT_FOUND } from './artifacts.js';
import { rpcError } from './errors.js';

const PREFIX = 'agent-utility://tasks/';
const PATH = /^agent-utility:\/\/tasks\/(task_[0-9A-Za-z_-]{1,64})\/result(?:\?(.*))?$/;

export const RESULT_TEMPLATE: ResourceTemplate = {
  uriTemplate: `${PREFIX}{task_id}/result{?offset,max_chars,chunks}`,
  name: 'task-result',
  title: 'Task result, in parts',
  description: `A finished task's result (JSON); for page text, the part from offset (default ${AGENT_MAX_CHARS} characters). Free: read from the stored task.`,
  mimeType: 'application/json',
};

export function resultUri(taskId: string, range: ReadRange = {}): string {
  const q = new URLSearchParams();
  if (range.offset !== undefined) q.set('offset', String(range.offset));
  if (range.max_chars !== undefined) q.set('max_chars', String(range.max_chars));
  if (range.chunks !== undefined) q.set('chunks', String(range.chunks));
  const query = q.toString();
  return `${PREFIX}${taskId}/result${query ? `?${query}` : ''}`;
}

export function isResultUri(uri: string): boolean {
  return PATH.test(uri);
}

export async function readResultResource(uri: string, d: { engine: Engine; caller: Caller }): Promise<ReadResourceResult> {
  const m = PATH.exec(uri);
  if (!m) throw rpcError(RESOURCE_NOT_FOUND, `Resource not found: ${uri} (result URIs look like ${RESULT_TEMPLATE.uriTemplate}).`, { uri });
  const range = toReadRange(parseOrInvalid(readRangeQuery, Object.fromEntries(new URLSearchParams(m[2] ?? ''))));
  const task = await d.engine.get(m[1]!);
  if (!task || !ownsTask(d.caller, task)) throw rpcError(RESOURCE_NOT_FOUND, `Resource not found: ${uri} (no such task of yours).`, { uri });
  if (task.status !== 'complete') throw rpcError(RESOURCE_NOT_FOUND, `Resource not found: ${uri} (the task is ${task.status}, not complete).`, { uri });
  const result = boundedResult(task, { registry: d.engine.registry, maxChars: AGENT_MAX_CHARS, range });
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(result) }] };
}
