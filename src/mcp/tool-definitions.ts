// The tools/list entries, generated from the registry: underscore names, the dotted name in _meta (once:
// the title is the tool's own, since the name beside it already says which tool it is), JSON Schemas from
// the zod definitions (made lean), annotations without the spec's defaults, the price in the description,
// and taskSupport "optional" so plain clients get a normal result and task-aware ones may run it as a task.
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolRegistry } from '../registry/registry.js';
import { leanAnnotations } from './lean-annotations.js';
import { leanSchema } from './lean-schema.js';
import { mcpNameIndex, mcpToolName } from '../registry/tool-names.js';

/** _meta key carrying the dotted tool name (dns.lookup) on each tool. */
export const TOOL_META_KEY = 'agent-utility/tool';

export function buildToolDefinitions(registry: ToolRegistry): Tool[] {
  return registry.names.map((name) => {
    const d = registry.descriptor(name);
    const tool: Tool = {
      name: mcpToolName(name),
      title: d.title,
      description: `${d.description.trim()} Price: ${d.price.usd} USD per call${d.price.rule ? ` (${d.price.rule})` : ''}.`,
      inputSchema: leanSchema(d.input_schema, 'input') as Tool['inputSchema'],
      outputSchema: leanSchema(d.output_schema, 'output') as NonNullable<Tool['outputSchema']>,
      annotations: leanAnnotations(d.annotations),
      execution: { taskSupport: 'optional' },
      _meta: { [TOOL_META_KEY]: name },
    };
    return tool;
  });
}

// Computed once per registry (the registry never changes while the process runs), shared by both eras.
const definitionCache = new WeakMap<ToolRegistry, { tools: Tool[]; index: Map<string, string> }>();

/** The tools/list entries and the MCP-name → SPEC-name index of a registry. */
export function definitionsFor(registry: ToolRegistry): { tools: Tool[]; index: Map<string, string> } {
  let defs = definitionCache.get(registry);
  if (!defs) {
    defs = { tools: buildToolDefinitions(registry), index: mcpNameIndex(registry) };
    definitionCache.set(registry, defs);
  }
  return defs;
}
