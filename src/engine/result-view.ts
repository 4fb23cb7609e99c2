// A task's result as a front door hands it out: for a tool with a bounded result (defineTool's `bounded`),
// one window of the stored result, chosen by the read's own range, else the task input's max_chars and
// offset, else the door's default size. Other results go out whole.
import { applyWindow } from '../registry/bounded-result.js';
import type { ToolRegistry } from '../registry/registry.js';
import type { TaskRow } from '../store/port.js';

/** A read's own window (REST ?offset=&max_chars=, an MCP resource URI's query). */
export interface ReadRange {
  offset?: number | undefined;
  max_chars?: number | undefined;
  chunks?: boolean | undefined;
}

export interface ResultBound {
  registry: ToolRegistry;
  /** The door's default window when neither the read nor the task's input names one. */
  maxChars: number;
  range?: ReadRange;
}

const wholeNumber = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);

/** Whether the tool's results are cut into windows. */
export function isBounded(registry: ToolRegistry, tool: string): boolean {
  return registry.has(tool) && registry.get(tool).bounded !== undefined;
}

/** The result of a complete task as `bound` windows it (null before completion). */
export function boundedResult(task: Pick<TaskRow, 'status' | 'tool' | 'result'> & { input?: unknown }, bound: ResultBound): unknown {
  if (task.status !== 'complete') return null;
  const spec = bound.registry.has(task.tool) ? bound.registry.get(task.tool).bounded : undefined;
  if (!spec) return task.result;
  const input = (typeof task.input === 'object' && task.input !== null ? task.input : {}) as Record<string, unknown>;
  const range = bound.range ?? {};
  return applyWindow(spec, task.result, {
    offset: range.offset ?? wholeNumber(input.offset) ?? 0,
    maxChars: range.max_chars ?? wholeNumber(input.max_chars) ?? bound.maxChars,
    chunks: range.chunks ?? input.chunks === true,
  });
}
