// buildModernMcpServer: the 2026-07-28 MCP server (stateless core: server/discover, the protocol version,
// client capabilities and log level in each request's _meta), on the v2 SDK's low-level Server. It serves
// the same tool definitions, engine calls, resources, prompts and completions as buildMcpServer (the
// 2025-11-25 server on the v1 SDK); docs/mcp.md says why the eras run on two SDK lines.
//
// What differs from the 2025 server: no MCP tasks API (2026-07-28 moved tasks into an extension the v2
// server has no runtime for; a plain tools/call still runs as an engine task and returns when it settles),
// and the log level comes from the request's _meta (logging/setLevel is still answered for clients that
// send it, and remembered per caller like the 2025 server does). Cancellation is the request's abort signal
// on both transports: over HTTP a 2026-07-28 client cancels by closing the call's response stream.
import { LOG_LEVEL_META_KEY, Server, type CallToolResult, type LoggingLevel } from '@modelcontextprotocol/server';
import type { CallToolResult as V1CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../version.js';
import { ARTIFACT_TEMPLATE, listArtifactResources, readArtifactResource } from './artifacts.js';
import { completeArgument, promptsFor } from './assist-handlers.js';
import { callAndWait, type CallDeps } from './call-and-wait.js';
import { callerKey } from './caller.js';
import { rpcError, toMcpError } from './errors.js';
import { INSTRUCTIONS, type McpServerDeps } from './server.js';
import { logLevels, passes } from './task-log.js';
import { isTaskUri, readTaskResource, TASK_TEMPLATE } from './task-resource.js';
import { parseToolCall } from './tool-call-request.js';
import { definitionsFor } from './tool-definitions.js';

export const MODERN_CAPABILITIES = {
  tools: { listChanged: false },
  resources: {},
  prompts: { listChanged: false },
  completions: {},
  logging: {},
} as const;

export function buildModernMcpServer(d: Omit<McpServerDeps, 'cancelOnAbort' | 'inFlight'>): Server {
  const { engine, caller, registry } = d;
  const { tools, index } = definitionsFor(registry);
  const log = d.log.child({ component: 'mcp', era: '2026-07-28', caller: callerKey(caller) });
  const who = callerKey(caller);
  const callDeps: CallDeps = {
    engine,
    caller,
    log,
    resultDeps: { artifacts: d.artifacts, inlineImageMaxBytes: d.config.mcp.inlineImageMaxBytes, log: d.log },
    cancelOnAbort: true,
  };
  const prompts = promptsFor(registry);

  const server = new Server({ name: 'agent-utility', title: 'agent-utility', version: VERSION }, { capabilities: MODERN_CAPABILITIES, instructions: INSTRUCTIONS });
  server.onerror = (err) => log.debug('mcp protocol error', { err });

  /** Real faults in a handler are logged and answered generically; protocol errors pass as they are. */
  const guard =
    <A extends unknown[], R>(handler: (...args: A) => Promise<R> | R) =>
    async (...args: A): Promise<R> => {
      try {
        return await handler(...args);
      } catch (err) {
        throw toMcpError(err, log);
      }
    };

  server.setRequestHandler('tools/list', () => ({ tools: tools as never }));

  server.setRequestHandler(
    'tools/call',
    guard(async (request, ctx): Promise<CallToolResult> => {
      const { params } = parseToolCall({ method: 'tools/call', params: request.params });
      const spec = index.get(params.name);
      if (!spec) throw rpcError(-32602, `Unknown tool "${params.name}". Available tools: ${[...index.keys()].join(', ')}.`);
      // The request's own level wins; a level set with logging/setLevel applies otherwise.
      const level = (ctx.mcpReq.envelope?.[LOG_LEVEL_META_KEY as never] as LoggingLevel | undefined) ?? logLevels.get(who);
      const result: V1CallToolResult = await callAndWait(callDeps, spec, params.arguments, {
        requestId: ctx.mcpReq.id,
        signal: ctx.mcpReq.signal,
        progressToken: ctx.mcpReq._meta?.progressToken,
        notify: (n) => ctx.mcpReq.notify(n),
        wantsLog: (l) => passes(level, l),
      });
      return result as CallToolResult;
    }),
  );

  server.setRequestHandler('resources/list', guard(async () => ({ resources: (await listArtifactResources({ engine, caller })) as never })));
  server.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [TASK_TEMPLATE, ARTIFACT_TEMPLATE] as never }));
  server.setRequestHandler(
    'resources/read',
    guard(async (request) => {
      const { uri } = request.params;
      const read = isTaskUri(uri) ? await readTaskResource(uri, { engine, caller }) : await readArtifactResource(uri, { engine, caller, artifacts: d.artifacts });
      return read as never;
    }),
  );
  server.setRequestHandler('prompts/list', () => ({ prompts: prompts.list() as never }));
  server.setRequestHandler('prompts/get', guard((request) => prompts.get(request.params.name, request.params.arguments) as never));
  server.setRequestHandler('completion/complete', guard((request) => completeArgument({ engine, registry, caller }, request.params as never)));
  return server;
}
