// Tool annotations as tools/list sends them: only the hints that say something. The MCP spec gives each
// hint a default (readOnlyHint false, destructiveHint true, idempotentHint false, openWorldHint true) and
// says destructiveHint and idempotentHint mean something only when readOnlyHint is false. A hint equal to
// its default, or one that means nothing beside readOnlyHint: true, is left out: a client reads the same
// tool from fewer characters, and tools/list is sent to the model on every turn. /v1/tools keeps them all.
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';

/** The spec's defaults (2025-11-25, ToolAnnotations). */
export const ANNOTATION_DEFAULTS = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true } as const;

/** What a client takes each hint to be once the defaults are applied; the inverse of leanAnnotations. */
export function effectiveAnnotations(a: ToolAnnotations | undefined): ToolAnnotations {
  return { ...ANNOTATION_DEFAULTS, ...a };
}

export function leanAnnotations(a: ToolAnnotations): ToolAnnotations {
  const out: ToolAnnotations = {};
  for (const [key, value] of Object.entries(a) as [keyof ToolAnnotations, unknown][]) {
    if (value === undefined) continue;
    if (key in ANNOTATION_DEFAULTS && ANNOTATION_DEFAULTS[key as keyof typeof ANNOTATION_DEFAULTS] === value) continue;
    if (a.readOnlyHint === true && (key === 'destructiveHint' || key === 'idempotentHint')) continue;
    (out as Record<string, unknown>)[key] = value;
  }
  return out;
}
