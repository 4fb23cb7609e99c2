// The MCP features around the tools: prompts, completion/complete (prompt arguments and resource template
// variables, the only places MCP completes), logging/setLevel and the task:// resource template. Kept out
// of server.ts so that file stays about running tools.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  SetLevelRequestSchema,
  type CompleteRequest,
  type CompleteResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { Engine } from '../engine/engine.js';
import type { ToolRegistry } from '../registry/registry.js';
import { ARTIFACT_TEMPLATE } from './artifacts.js';
import { callerKey, type Caller } from '../web/caller.js';
import { PromptCatalog } from './prompts.js';
import { recentTaskIds, TASK_TEMPLATE } from './task-resource.js';
import type { LogLevels } from './task-log.js';
import { completeFrom, MAX_COMPLETIONS } from './vocabularies.js';

const catalogs = new WeakMap<ToolRegistry, PromptCatalog>();

/** The prompts of a registry (those whose tools are all exposed), built once. */
export function promptsFor(registry: ToolRegistry): PromptCatalog {
  let catalog = catalogs.get(registry);
  if (!catalog) catalogs.set(registry, (catalog = new PromptCatalog(registry)));
  return catalog;
}

type CompleteParams = CompleteRequest['params'];

/** completion/complete for both eras: prompt argument vocabularies and the task_id template variable. */
export async function completeArgument(d: { engine: Engine; registry: ToolRegistry; caller: Caller }, params: CompleteParams): Promise<CompleteResult> {
  const { ref, argument } = params;
  if (ref.type === 'ref/prompt') {
    const vocabulary = promptsFor(d.registry).vocabularyOf(ref.name, argument.name);
    return { completion: vocabulary ? completeFrom(vocabulary, argument.value) : { values: [] } };
  }
  const templates: string[] = [TASK_TEMPLATE.uriTemplate, ARTIFACT_TEMPLATE.uriTemplate];
  if (templates.includes(ref.uri) && argument.name === 'task_id') {
    const ids = await recentTaskIds(d, argument.value);
    return { completion: { values: ids.slice(0, MAX_COMPLETIONS), total: ids.length, hasMore: ids.length > MAX_COMPLETIONS } };
  }
  return { completion: { values: [] } };
}

export function registerAssistHandlers(server: Server, d: { engine: Engine; registry: ToolRegistry; caller: Caller; logLevels: LogLevels }): void {
  const prompts = promptsFor(d.registry);
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: prompts.list() }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => prompts.get(request.params.name, request.params.arguments));
  server.setRequestHandler(CompleteRequestSchema, (request) => completeArgument(d, request.params));

  // Replaces the SDK's per-session handler: a stateless HTTP server instance lives for one request only.
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    d.logLevels.set(callerKey(d.caller), request.params.level);
    return {};
  });
}
