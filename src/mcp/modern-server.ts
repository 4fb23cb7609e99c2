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
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../logger.js';
import { VERSION } from '../version.js';
import { ARTIFACT_TEMPLATE, artifactVerifier, listArtifactResources, readArtifactResource } from './artifacts.js';
import { completeArgument, promptsFor } from './assist-handlers.js';
import { callAndWait, type CallDeps } from './call-and-wait.js';
import { callerKey } from '../web/caller.js';
import { rpcError, toMcpError } from './errors.js';
import { INSTRUCTIONS } from './instructions.js';
import type { McpServerDeps } from './server.js';
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

export type ModernServerDeps = Omit<McpServerDeps, 'cancelOnAbort' | 'inFlight'>;

interface Prepared {
  d: ModernServerDeps;
  tools: Tool[];
  index: Map<string, string>;
  who: string;
  log: Logger;
  callDeps: CallDeps;
}

/**
 * `deps` may resolve later than the server is built: stdio answers a server/discover probe (which the SDK
 * answers from the capabilities alone) before the engine has booted, and boots it on the first request.
 */
export function buildModernMcpServer(baseLog: Logger, deps: () => ModernServerDeps | Promise<ModernServerDeps>): Server {
  let prepared: Promise<Prepared> | undefined;
  const ready = () =>
    (prepared ??= Promise.resolve(deps()).then((d): Prepared => {
      const defs = definitionsFor(d.registry);
      // This era has no tasks API to offer (it moved to an extension the SDK serves no side of): the
      // definitions drop `execution.taskSupport`, and every call answers with its result.
      const tools = defs.tools.map(({ execution: _execution, ...tool }) => tool);
      const index = defs.index;
      const log = d.log.child({ component: 'mcp', era: '2026-07-28', caller: callerKey(d.caller) });
      const callDeps: CallDeps = {
        engine: d.engine,
        caller: d.caller,
        log,
        resultDeps: { artifacts: d.artifacts, verifyArtifact: artifactVerifier(d.config), inlineImageMaxBytes: d.config.mcp.inlineImageMaxBytes, log: d.log },
        cancelOnAbort: true,
      };
      return { d, tools, index, who: callerKey(d.caller), log, callDeps };
    }));

  const server = new Server(
    { name: 'agent-utility', title: 'agent-utility', version: VERSION },
    { capabilities: MODERN_CAPABILITIES, instructions: INSTRUCTIONS },
  );
  server.onerror = (err) => baseLog.debug('mcp protocol error', { err });

  /** Runs a handler once the deps are ready; real faults are logged and answered generically. */
  const guard =
    <A extends unknown[], R>(handler: (p: Prepared, ...args: A) => Promise<R> | R) =>
    async (...args: A): Promise<R> => {
      const p = await ready();
      try {
        return await handler(p, ...args);
      } catch (err) {
        throw toMcpError(err, p.log);
      }
    };

  server.setRequestHandler(
    'tools/list',
    guard((p) => ({ tools: p.tools as never })),
  );

  server.setRequestHandler(
    'tools/call',
    guard(async (p, request, ctx): Promise<CallToolResult> => {
      const { params } = parseToolCall({ method: 'tools/call', params: request.params });
      const spec = p.index.get(params.name);
      if (!spec) throw rpcError(-32602, `Unknown tool "${params.name}". Available tools: ${[...p.index.keys()].join(', ')}.`);
      // The request's own level wins; a level set with logging/setLevel applies otherwise.
      const level = (ctx.mcpReq.envelope?.[LOG_LEVEL_META_KEY as never] as LoggingLevel | undefined) ?? logLevels.get(p.who);
      const result: V1CallToolResult = await callAndWait(p.callDeps, spec, params.arguments, {
        requestId: ctx.mcpReq.id,
        signal: ctx.mcpReq.signal,
        progressToken: ctx.mcpReq._meta?.progressToken,
        notify: (n) => ctx.mcpReq.notify(n),
        wantsLog: (l) => passes(level, l),
      });
      return result as CallToolResult;
    }),
  );

  server.setRequestHandler(
    'resources/list',
    guard(async (p) => ({ resources: (await listArtifactResources(p.d)) as never })),
  );
  server.setRequestHandler(
    'resources/templates/list',
    guard(() => ({ resourceTemplates: [TASK_TEMPLATE, ARTIFACT_TEMPLATE] as never })),
  );
  server.setRequestHandler(
    'resources/read',
    guard(async (p, request) => {
      const { uri } = request.params;
      return (isTaskUri(uri) ? await readTaskResource(uri, p.d) : await readArtifactResource(uri, p.d)) as never;
    }),
  );
  server.setRequestHandler(
    'prompts/list',
    guard((p) => ({ prompts: promptsFor(p.d.registry).list() as never })),
  );
  server.setRequestHandler(
    'prompts/get',
    guard((p, request) => promptsFor(p.d.registry).get(request.params.name, request.params.arguments) as never),
  );
  server.setRequestHandler(
    'completion/complete',
    guard((p, request) => completeArgument(p.d, request.params as never)),
  );
  return server;
}
