// The MCP features around the tools: prompts, completion/complete (prompt arguments and resource template
// variables, the only places MCP completes), logging/setLevel and the task:// resource template. Kept out
// of server.ts so that file stays about running tools.
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  SetLevelRequestSchema,
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

export const ASSIST_CAPABILITIES = { prompts: { listChanged: false }, completions: {}, logging: {} } as const;

const catalogs = new WeakMap<ToolRegistry, PromptCatalog>();

export function registerAssistHandlers(server: Server, d: { engine: Engine; registry: ToolRegistry; caller: Caller; logLevels: LogLevels }): void {
  let catalog = catalogs.get(d.registry);
  if (!catalog) catalogs.set(d.registry, (catalog = new PromptCatalog(d.registry)));
  const prompts = catalog;

  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: prompts.list() }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => prompts.get(request.params.name, request.params.arguments));

  server.setRequestHandler(CompleteRequestSchema, async (request): Promise<CompleteResult> => {
    const { ref, argument } = request.params;
    if (ref.type === 'ref/prompt') {
      const vocabulary = prompts.vocabularyOf(ref.name, argument.name);
      return { completion: vocabulary ? completeFrom(vocabulary, argument.value) : { values: [] } };
    }
    const templates: string[] = [TASK_TEMPLATE.uriTemplate, ARTIFACT_TEMPLATE.uriTemplate];
    if (templates.includes(ref.uri) && argument.name === 'task_id') {
      const ids = await recentTaskIds(d, argument.value);
      return { completion: { values: ids.slice(0, MAX_COMPLETIONS), total: ids.length, hasMore: ids.length > MAX_COMPLETIONS } };
    }
    return { completion: { values: [] } };
  });

  // Replaces the SDK's per-session handler: a stateless HTTP server instance lives for one request only.
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    d.logLevels.set(callerKey(d.caller), request.params.level);
    return {};
  });
}
